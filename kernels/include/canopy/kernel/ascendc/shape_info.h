#pragma once
// AscendC::ShapeInfo (CANN's basic_api/kernel_tensor.h): the shape a tensor carries for the APIs
// that read it (LocalTensor::SetShapeInfo / GetShapeInfo): up to 8 dimensions, the original
// (unpadded) dimensions and the data format.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/data_format.h"

// A macro, as CANN's impl/utils/sys_macros.h has it: a kernel may set it first (catlass's examples
// set 0 to shrink their tensors, giving up the shape they carry).
#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif

namespace AscendC {

struct ShapeInfo {
public:
    ShapeInfo() {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
        Require(inputShapeDim, inputOriginalShapeDim);
        for (int index = 0; index < shapeDim; ++index) shape[index] = inputShape[index];
        for (int index = 0; index < originalShapeDim; ++index) originalShape[index] = inputOriginalShape[index];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    // At least one element: C++ has no arrays of none.
    uint32_t shape[K_MAX_SHAPE_DIM > 0 ? K_MAX_SHAPE_DIM : 1] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM > 0 ? K_MAX_SHAPE_DIM : 1] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    static void Require(uint8_t dims, uint8_t original_dims) {
        if (dims > K_MAX_SHAPE_DIM || original_dims > K_MAX_SHAPE_DIM) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("ShapeInfo", "inputShapeDim is ", int(dims), ", inputOriginalShapeDim is ",
                                                  int(original_dims), "; both must be at most ", K_MAX_SHAPE_DIM);
        }
    }
};

// The number of elements a ShapeInfo's dimensions describe.
inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo) {
    uint64_t size = 1;
    for (int index = 0; index < shapeInfo.shapeDim; ++index) size *= shapeInfo.shape[index];
    return size;
}

}  // namespace AscendC
