#pragma once
// Synchronisation. Inside a block, PipeBarrier and SetFlag/WaitFlag order the NPU's independent
// pipes (MTE2, vector, MTE3, cube ...); a CPU block executes its instructions one after another, so
// every earlier instruction has completed by the time a later one starts and they have nothing to
// wait for. Their arguments are still checked. Across blocks, SyncAll is a real barrier (the
// launcher's, which needs the kernel launched cooperatively).
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel::ascendc {

inline void require_event_id(int32_t eventID, const char* api) {
    if (eventID < 0 || eventID >= AscendC::QUE_MAX_EVENT) [[unlikely]] {
        fail_misuse(api, "event id ", eventID, " is outside [0, ", AscendC::QUE_MAX_EVENT, ")");
    }
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Waits for the named pipe(s) to drain: already the case in a sequentially executing block.
template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {}

// Producer side of a pipe-to-pipe dependency: sequential execution has already satisfied it.
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
    canopy::kernel::ascendc::require_event_id(eventID, "SetFlag");
}

// Consumer side: the producer's instructions finished before this one started.
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
    canopy::kernel::ascendc::require_event_id(eventID, "WaitFlag");
}

// The object form of SetFlag/WaitFlag between two pipes.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    __aicore__ inline void SetFlag(TEventID id) {
        canopy::kernel::ascendc::require_event_id(id, "TQueSync::SetFlag");
    }
    __aicore__ inline void WaitFlag(TEventID id) {
        canopy::kernel::ascendc::require_event_id(id, "TQueSync::WaitFlag");
    }
};

// Waits until every block of the launch has reached this call.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
    canopy::kernel::sync_all();
}

// The software form: on the NPU the blocks meet through flags in gmWorkspace; the launcher's barrier
// needs no workspace. Only a barrier of all the launch's blocks is modelled.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0) {
    static_cast<void>(gmWorkspace);
    static_cast<void>(ubWorkspace);
    if (usedCores != 0 && usedCores != GetBlockNum()) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("SyncAll", "usedCores ", usedCores, " of ", GetBlockNum(),
                                              " blocks: only a barrier of every block of the launch is modelled");
    }
    canopy::kernel::sync_all();
}

}  // namespace AscendC
