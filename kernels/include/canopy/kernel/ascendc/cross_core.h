#pragma once
// Cross-core synchronization of a __mix__ kernel (the A2's CrossCoreSetFlag / CrossCoreWaitFlag).
// The scheduler's counters live in the launcher (canopy/kernel/block.h, cross_core_set_flag): a
// mix kernel whose source waits runs every AIC and AIV of its launch at once, one thread each.
#include <cstdint>

#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"

namespace AscendC {

// Reports to the scheduler that this core has issued everything before it on `pipe`. A CPU core
// has completed those instructions by the time it gets here, so the report is immediate.
// modeId 0: all cores of this core's type in the launch; 1: the AIVs of this logical core; 2:
// from the AIC to each of its AIVs, or from all of its AIVs to the AIC. flagId 0-15.
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
    canopy::kernel::cross_core_set_flag(modeId, static_cast<int>(pipe), flagId);
}

// Blocks until this core's counter of `flagId` is non-zero, then takes one from it. On the A2 the
// template arguments have no effect: the wait holds every pipe.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
    canopy::kernel::cross_core_wait_flag(flagId);
}

}  // namespace AscendC
