#pragma once
// AscendCUtils::SetOverflow (CANN kernel_utils): the A2's CTRL[48] bit chooses how float results
// that overflow are stored: 1 keeps inf/nan, 0 saturates them to the type's largest finite value
// (and nan to 0). It is the block's saturation mode the vector instructions already apply
// (eigen_map.h saturate_results), set for the rest of the block.
#include <cstdint>

#include "canopy/kernel/block.h"

namespace AscendC {

#ifndef CANOPY_ASCENDC_UTILS_DEFINED
#define CANOPY_ASCENDC_UTILS_DEFINED
class AscendCUtils {
public:
    __aicore__ static inline void SetOverflow(uint64_t ctrlValue) {
        canopy::kernel::current_block().saturates = (ctrlValue != 1);
    }
};
#endif

}  // namespace AscendC
