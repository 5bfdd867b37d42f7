#pragma once
// AscendC::DataFormat (CANN's basic_api/kernel_struct_data_copy.h): the layout of a tensor's data.
// Guarded by CANN's own macro, so a second declaration with the same guard is skipped.
#include <cstdint>

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
namespace AscendC {
enum class DataFormat : uint8_t {
    ND = 0,
    NZ,
    NCHW,
    NC1HWC0,
    NHWC,
    NCDHW,
    NDC1HWC0,
    FRACTAL_Z_3D,
};
}  // namespace AscendC
#endif  // ASCC_ENUM_DATAFORMAT
