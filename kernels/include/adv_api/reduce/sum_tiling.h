#pragma once
// Host tiling of Sum (CANN adv_api/reduce/sum_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

// The temporary buffer Sum needs for rows of n elements of typeSize bytes: one partial sum per
// 256-byte repeat, rounded up to 32 bytes. The minimum is the maximum.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    if (typeSize == 0 || typeSize > 32 || n == 0) {
        maxSize = minSize = 0;
        return;
    }
    maxSize = minSize = canopy::adv::sizes::sum(n, typeSize);
}

}  // namespace AscendC
