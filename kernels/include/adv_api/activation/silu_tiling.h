#pragma once
// Silu needs no temporary buffer (CANN's adv_api/activation/silu_tiling.h).
#include <cstdint>

#include "adv_api/utils/types.h"

namespace AscendC {

inline void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    maxValue = 0;
    minValue = 0;
}

}  // namespace AscendC
