#pragma once
// Host tiling of the radix / merge Sort (CANN adv_api/sort/sort_tiling_intf.h). That Sort exists
// on later architectures only: on the A2, which Canopy models, CANN's function refuses the
// architecture and leaves its outputs unset; Canopy sets them to 0 (the A2 sorts with Sort32 and
// its own buffers) so that callers read defined values.
#include <cstdint>

#include "adv_api/sort/sort.h"
#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace platform_ascendc {
class PlatformAscendC;
}

namespace AscendC {

// Concat needs no buffer on the A2 (the scores are sorted in place).
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    (void)elemCount;
    (void)dataTypeSize;
    return 0;
}
// Sort<T, isFullSort> on the A2: the 8-byte (score, index) pair of every element.
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    (void)dataTypeSize;
    return canopy::adv::sizes::sort_pairs(elemCount);
}

inline void GetSortMaxMinTmpSize(const TensorShape& srcShape, TensorDataType valueType, TensorDataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)srcShape;
    (void)valueType;
    (void)indexType;
    (void)isReuseSource;
    (void)config;
    maxValue = 0;
    minValue = 0;
}

}  // namespace AscendC
