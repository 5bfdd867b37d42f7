#pragma once
// ShapeInfo (CANN basic_api/kernel_tensor.h): the shape and data format a LocalTensor can carry,
// which some advanced APIs read (AscendAntiQuant's scale and offset groups, for one), and the
// DataFormat enumeration.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"

namespace AscendC {

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
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
#endif

constexpr int32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
public:
    ShapeInfo() = default;
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(Checked(inputShapeDim)), originalShapeDim(Checked(inputOriginalShapeDim)), dataFormat(inputFormat) {
        for (int index = 0; index < shapeDim; ++index) shape[index] = inputShape[index];
        for (int index = 0; index < originalShapeDim; ++index) originalShape[index] = inputOriginalShape[index];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : shapeDim(Checked(inputShapeDim)), originalShapeDim(inputShapeDim), dataFormat(inputFormat) {
        for (int index = 0; index < shapeDim; ++index) shape[index] = originalShape[index] = inputShape[index];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, DataFormat::ND) {}

    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    static uint8_t Checked(uint8_t dims) {
        if (dims > K_MAX_SHAPE_DIM) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("ShapeInfo", "shape of ", int(dims), " dimensions; at most ",
                                                  K_MAX_SHAPE_DIM);
        }
        return dims;
    }
};

inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo) {
    uint64_t size = 1;
    for (int index = 0; index < shapeInfo.shapeDim; ++index) size *= shapeInfo.shape[index];
    return size;
}

}  // namespace AscendC
