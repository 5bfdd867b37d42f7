#pragma once
// Host tiling of AscendQuant (CANN adv_api/quantization/ascend_quant_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    (void)typeSize;
    maxValue = canopy::adv::sizes::ascend_quant_max(uint32_t(srcShape.GetShapeSize()));
    minValue = canopy::adv::sizes::ascend_quant_min();
}

inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = 2;
}

}  // namespace AscendC
