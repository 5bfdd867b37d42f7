#pragma once
// Host tiling of AscendAntiQuant (CANN adv_api/quantization/ascend_antiquant_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace AscendC {}  // namespace AscendC

namespace canopy::adv::sizes {
inline uint32_t antiquant_elements(const AscendC::TensorShape& shape) {
    uint32_t size = 1;
    for (int64_t dim : shape.GetDims()) size *= uint32_t(dim);
    return size;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

// srcShape is [K, N] ([N, K] transposed) or flat; the minimum for a per-channel scale on a
// non-transposed source reads K from srcShape's first dimension, as CANN's does.
inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    (void)inputDataType;
    return canopy::adv::sizes::ascend_antiquant_max(
        canopy::adv::sizes::antiquant_elements(srcShape), canopy::adv::sizes::antiquant_elements(scaleShape),
        uint32_t(srcShape.GetDim(0)), isTranspose, outputDataType == ge::DT_FLOAT16);
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    (void)inputDataType;
    return canopy::adv::sizes::ascend_antiquant_min(
        canopy::adv::sizes::antiquant_elements(srcShape), canopy::adv::sizes::antiquant_elements(scaleShape),
        uint32_t(srcShape.GetDim(0)), isTranspose, outputDataType == ge::DT_FLOAT16);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                            bool isTranspose, TensorDataType inputDataType,
                                            TensorDataType outputDataType, uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}

}  // namespace AscendC
