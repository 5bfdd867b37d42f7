#pragma once
// Host tiling of AscendDequant (CANN adv_api/quantization/ascend_dequant_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

// srcShape is [m, n] or [n] of int32 (typeSize 4).
inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSize;
    uint32_t outer = 1;
    uint32_t inner = 0;
    if (srcShape.GetDimNum() == 2) {
        outer = uint32_t(srcShape.GetDim(0));
        inner = uint32_t(srcShape.GetDim(1));
    } else if (srcShape.GetDimNum() == 1) {
        inner = uint32_t(srcShape.GetDim(0));
    } else {
        return;
    }
    maxValue = canopy::adv::sizes::ascend_dequant_max(outer, inner);
    minValue = canopy::adv::sizes::ascend_dequant_min(inner);
}

}  // namespace AscendC
