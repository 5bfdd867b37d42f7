#pragma once
// Trunc's temporary buffer (CANN's adv_api/math/trunc_tiling.h): its row of
// canopy/adv/live_nodes.h.
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/live_nodes.h"

namespace AscendC {

inline void GetTruncMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    canopy::adv::live_nodes::max_min(canopy::adv::live_nodes::trunc, srcShape, typeSize, maxValue, minValue);
}

inline void GetTruncTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    canopy::adv::live_nodes::factor(canopy::adv::live_nodes::trunc, typeSize, maxLiveNodeCount, extraBuf);
}

}  // namespace AscendC
