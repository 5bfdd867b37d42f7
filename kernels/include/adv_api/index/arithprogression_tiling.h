#pragma once
// Host tiling of Arange / ArithProgression (CANN adv_api/index/arithprogression_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"

namespace AscendC {

// Arange needs no temporary buffer.
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    maxValue = 0;
    minValue = 0;
}

}  // namespace AscendC

namespace AscendC {
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    GetArithProgressionMaxMinTmpSize(maxValue, minValue);
}
}  // namespace AscendC
