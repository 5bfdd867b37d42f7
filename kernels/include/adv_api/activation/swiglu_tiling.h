#pragma once
// SwiGLU's temporary buffer (CANN's adv_api/activation/swiglu_tiling.h): its row of
// canopy/adv/live_nodes.h.
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/live_nodes.h"

namespace AscendC {

// CANN's SwiGLU takes isReuseSource last.
inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    (void)isReuseSource;
    canopy::adv::live_nodes::max_min(canopy::adv::live_nodes::swiglu, srcShape, typeSize, maxValue, minValue);
}

inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    canopy::adv::live_nodes::factor(canopy::adv::live_nodes::swiglu, typeSize, maxLiveNodeCount, extraBuf);
}

}  // namespace AscendC
