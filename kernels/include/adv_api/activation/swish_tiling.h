#pragma once
// Swish needs no temporary buffer (CANN's adv_api/activation/swish_tiling.h).
#include <cstdint>

#include "adv_api/utils/types.h"

namespace AscendC {

inline void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    maxValue = 0;
    minValue = 0;
}

}  // namespace AscendC
