#pragma once
// Synchronisation. Inside a block, SetFlag/WaitFlag and PipeBarrier<PIPE_ALL> order the NPU's
// independent pipes (MTE2, vector, MTE3, cube ...). A CPU block executes its instructions one
// after another, so they have nothing to wait for here; instead they feed the pipe model
// (canopy/kernel/pipes.h), which fails the launch when an instruction touches memory another pipe
// may still be using, when a WaitFlag has no SetFlag, and when a flag is left set. Across blocks,
// SyncAll is a real barrier (the launcher's, which needs the kernel launched cooperatively).
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/instruction.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/system.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {

// What DataSyncBarrier waits for.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

}  // namespace AscendC

namespace canopy::kernel::ascendc {

inline void require_event_id(int32_t eventID, const char* api) {
    if (eventID < 0 || eventID >= AscendC::QUE_MAX_EVENT) [[unlikely]] {
        fail_misuse(api, "event id ", eventID, " is outside [0, ", AscendC::QUE_MAX_EVENT, ")");
    }
}

struct PipePair {
    Pipe src;
    Pipe dst;
};

// The source and destination pipes of a HardEvent (named source_destination).
constexpr PipePair pipes_of(AscendC::HardEvent event) {
    using AscendC::HardEvent;
    switch (event) {
        case HardEvent::MTE2_MTE1: return {Pipe::MTE2, Pipe::MTE1};
        case HardEvent::MTE1_MTE2: return {Pipe::MTE1, Pipe::MTE2};
        case HardEvent::MTE1_M: return {Pipe::MTE1, Pipe::M};
        case HardEvent::M_MTE1: return {Pipe::M, Pipe::MTE1};
        case HardEvent::MTE2_V: return {Pipe::MTE2, Pipe::V};
        case HardEvent::V_MTE2: return {Pipe::V, Pipe::MTE2};
        case HardEvent::MTE3_V: return {Pipe::MTE3, Pipe::V};
        case HardEvent::V_MTE3: return {Pipe::V, Pipe::MTE3};
        case HardEvent::M_V: return {Pipe::M, Pipe::V};
        case HardEvent::V_M: return {Pipe::V, Pipe::M};
        case HardEvent::V_V: return {Pipe::V, Pipe::V};
        case HardEvent::MTE3_MTE1: return {Pipe::MTE3, Pipe::MTE1};
        case HardEvent::MTE1_MTE3: return {Pipe::MTE1, Pipe::MTE3};
        case HardEvent::MTE1_V: return {Pipe::MTE1, Pipe::V};
        case HardEvent::MTE2_M: return {Pipe::MTE2, Pipe::M};
        case HardEvent::M_MTE2: return {Pipe::M, Pipe::MTE2};
        case HardEvent::V_MTE1: return {Pipe::V, Pipe::MTE1};
        case HardEvent::M_FIX: return {Pipe::M, Pipe::FIX};
        case HardEvent::FIX_M: return {Pipe::FIX, Pipe::M};
        case HardEvent::MTE3_MTE2: return {Pipe::MTE3, Pipe::MTE2};
        case HardEvent::MTE2_MTE3: return {Pipe::MTE2, Pipe::MTE3};
        case HardEvent::S_V: return {Pipe::S, Pipe::V};
        case HardEvent::V_S: return {Pipe::V, Pipe::S};
        case HardEvent::S_MTE2: return {Pipe::S, Pipe::MTE2};
        case HardEvent::MTE2_S: return {Pipe::MTE2, Pipe::S};
        case HardEvent::S_MTE3: return {Pipe::S, Pipe::MTE3};
        case HardEvent::MTE3_S: return {Pipe::MTE3, Pipe::S};
        case HardEvent::MTE2_FIX: return {Pipe::MTE2, Pipe::FIX};
        case HardEvent::FIX_MTE2: return {Pipe::FIX, Pipe::MTE2};
        case HardEvent::FIX_S: return {Pipe::FIX, Pipe::S};
        case HardEvent::M_S: return {Pipe::M, Pipe::S};
        case HardEvent::FIX_MTE3: return {Pipe::FIX, Pipe::MTE3};
        case HardEvent::MTE1_FIX: return {Pipe::MTE1, Pipe::FIX};
        case HardEvent::FIX_MTE1: return {Pipe::FIX, Pipe::MTE1};
        case HardEvent::FIX_FIX: return {Pipe::FIX, Pipe::FIX};
        default: return {Pipe::S, Pipe::S};
    }
}

inline void require_hard_event(AscendC::HardEvent event, const char* api) {
    if (static_cast<uint8_t>(event) >= static_cast<uint8_t>(AscendC::HardEvent::MAX)) [[unlikely]] {
        fail_misuse(api, "HardEvent ", static_cast<int>(event), " is not an event of the A2");
    }
}

inline void set_flag(AscendC::HardEvent event, int32_t eventID, const char* api) {
    require_hard_event(event, api);
    require_event_id(eventID, api);
    const PipePair pipes = pipes_of(event);
    canopy::kernel::pipe_set_flag(pipes.src, pipes.dst, eventID, api);
}

inline void wait_flag(AscendC::HardEvent event, int32_t eventID, const char* api) {
    require_hard_event(event, api);
    require_event_id(eventID, api);
    const PipePair pipes = pipes_of(event);
    canopy::kernel::pipe_wait_flag(pipes.src, pipes.dst, eventID, api);
}

// A pipe_t a pipe-to-pipe API accepts: one of the A2's seven pipes.
inline void require_pipe(pipe_t pipe, const char* api) {
    if (pipe > PIPE_MTE3 && pipe != PIPE_FIX) [[unlikely]] {
        fail_misuse(api, "pipe ", static_cast<int>(pipe), " is not one of the A2's pipes (PIPE_S, PIPE_V, PIPE_M, "
                    "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX)");
    }
}

// The HardEvent between two pipes, for TQueSync's messages.
inline AscendC::HardEvent hard_event_between(Pipe src, Pipe dst) {
    for (uint8_t e = 0; e < static_cast<uint8_t>(AscendC::HardEvent::MAX); ++e) {
        const PipePair pair = pipes_of(static_cast<AscendC::HardEvent>(e));
        if (pair.src == src && pair.dst == dst) return static_cast<AscendC::HardEvent>(e);
    }
    return AscendC::HardEvent::MAX;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Same-pipe barriers order nothing the model tracks (a pipe's instructions already run in order);
// PIPE_ALL orders every instruction issued so far before every later one.
template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {
    static_assert(pipe != PIPE_S, "PipeBarrier does not take PIPE_S: the scalar pipe is ordered by the hardware");
    if constexpr (pipe == PIPE_ALL) canopy::kernel::pipe_barrier_all();
}

// The source pipe sets the flag once every instruction it was given before has completed.
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
    canopy::kernel::ascendc::set_flag(event, eventID, "SetFlag");
}

// The destination pipe waits for the flag and clears it; its later instructions run after the
// source pipe's instructions before the SetFlag.
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
    canopy::kernel::ascendc::wait_flag(event, eventID, "WaitFlag");
}

// The object form of SetFlag/WaitFlag between two pipes.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    __aicore__ inline void SetFlag(TEventID id) { Flag(true, id, "TQueSync::SetFlag"); }
    __aicore__ inline void WaitFlag(TEventID id) { Flag(false, id, "TQueSync::WaitFlag"); }

private:
    static void Flag(bool set, TEventID id, const char* api) {
        using namespace canopy::kernel::ascendc;
        require_pipe(src, api);
        require_pipe(dst, api);
        const HardEvent event = hard_event_between(pipe_of(src), pipe_of(dst));
        if (event == HardEvent::MAX) [[unlikely]] {
            fail_misuse(api, "the A2 has no event from ", canopy::kernel::pipe_name(pipe_of(src)), " to ",
                        canopy::kernel::pipe_name(pipe_of(dst)));
        }
        if (set) set_flag(event, id, api);
        else wait_flag(event, id, api);
    }
};

// Scalar memory accesses complete before later ones: a CPU's scalar accesses already do, and the
// model does not track GM, so there is nothing to order.
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier() {
    static_assert(static_cast<uint8_t>(arg0) <= static_cast<uint8_t>(MemDsbT::SEQ), "MemDsbT is ALL, DDR, UB or SEQ");
}

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// IBSet / IBWait's flag: one 32-byte slot per (eventID, blockIdx) in the workspace, laid out as
// Ascend C lays it out so that kernels size their workspace the same way. The flag word moves
// 0 -> 1 (IBSet, once the previous signal was consumed) and 1 -> 0 (IBWait).
inline void exchange_block_flag(const AscendC::GlobalTensor<int32_t>& gmWorkspace,
                                const AscendC::LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx, int32_t eventID,
                                int32_t from, const char* api) {
    canopy::kernel::require_blocks_at_once(api);
    const int64_t blocks = AscendC::GetBlockNum();
    if (blockIdx < 0 || blockIdx >= blocks || eventID < 0) [[unlikely]] {
        fail_misuse(api, "blockIdx ", blockIdx, " / eventID ", eventID, " outside [0, ", blocks, ") / [0, ...)");
    }
    require_memory(ubWorkspace, AscendC::Hardware::UB, api, "ubWorkspace");
    require_elements(ubWorkspace, AscendC::ONE_BLK_SIZE / sizeof(int32_t), api, "ubWorkspace");
    const uint64_t slot = uint64_t(blocks) * 8 * uint64_t(eventID) + uint64_t(blockIdx) * 8;
    int32_t* flag = gmWorkspace.CheckedSpan(slot, 8, true, api);
    canopy::kernel::pipe_barrier_all();
    int32_t expected = from;
    while (!__atomic_compare_exchange_n(flag, &expected, 1 - from, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        expected = from;
        canopy::kernel::poll_other_blocks();
    }
    *ubWorkspace.landed_address() = 1 - from;  // the UB copy of the flag, as the NPU's sequence leaves it
    canopy::kernel::pipe_barrier_all();
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Signals the block waiting in IBWait(gmWorkspace, ubWorkspace, blockIdx, eventID).
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID) {
    canopy::kernel::ascendc::exchange_block_flag(gmWorkspace, ubWorkspace, blockIdx, eventID, 0, "IBSet");
}

// Waits for the matching IBSet of another block.
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID) {
    canopy::kernel::ascendc::exchange_block_flag(gmWorkspace, ubWorkspace, blockIdx, eventID, 1, "IBWait");
}

}  // namespace AscendC

// Deterministic computation (InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock): the
// AIVs take turns in blockIdx order, round after round. The workspace layout is Ascend C's, so that
// kernels size it the same way: a 32-byte slot per block in GM holding the round that block last
// finished (0 once the last block closed the round), and past the blockNum slots of the UB copy the
// block's own round counter.
namespace canopy::kernel::ascendc {

constexpr int64_t determine_slot = AscendC::ONE_BLK_SIZE / sizeof(int32_t);

struct DetermineWorkspace {
    int32_t* gm;       // blockNum slots
    int32_t* ub;       // blockNum slots, then the round counter
    int64_t blocks;
    int64_t index;
};

inline DetermineWorkspace determine_workspace(const AscendC::GlobalTensor<int32_t>& gmWorkspace,
                                              const AscendC::LocalTensor<int32_t>& ubWorkspace, const char* api) {
    canopy::kernel::require_blocks_at_once(api);
    const int64_t blocks = AscendC::GetBlockNum();
    require_memory(ubWorkspace, AscendC::Hardware::UB, api, "ubWorkspace");
    require_elements(ubWorkspace, uint64_t(blocks * determine_slot + determine_slot), api, "ubWorkspace");
    int32_t* gm = gmWorkspace.CheckedSpan(0, uint64_t(blocks * determine_slot), true, api);
    const int64_t index = AscendC::GetBlockIdx();
    // The AIVs of a __mix__ kernel count past GetBlockNum(): the workspace has one slot per block.
    if (index >= blocks) [[unlikely]] fail_misuse(api, "AIV index ", index, " has no slot among ", blocks, " blocks");
    return {gm, ubWorkspace.landed_address(), blocks, index};
}

inline void store_slot(int32_t* slot, int32_t value) {
    for (int64_t i = 0; i < determine_slot; ++i) __atomic_store_n(slot + i, value, __ATOMIC_RELEASE);
}

// The blocks before this one have finished `round`, the others have not started it.
inline bool is_turn_of(const DetermineWorkspace& workspace, int32_t round) {
    for (int64_t block = 0; block < workspace.blocks; ++block) {
        const int32_t seen = __atomic_load_n(workspace.gm + block * determine_slot, __ATOMIC_ACQUIRE);
        workspace.ub[block * determine_slot] = seen;  // the UB copy the NPU's polling leaves behind
        if (seen != (block < workspace.index ? round : 0)) return false;
    }
    return true;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Must come first in the kernel: block 0 clears the GM slots and every block starts at round 1.
__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                                     LocalTensor<int32_t>& ubWorkspace) {
    using namespace canopy::kernel::ascendc;
    if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
    const DetermineWorkspace workspace = determine_workspace(gmWorkspace, ubWorkspace, "InitDetermineComputeWorkspace");
    canopy::kernel::pipe_barrier_all();
    if (workspace.index == 0) {
        for (int64_t block = 0; block < workspace.blocks; ++block) store_slot(workspace.gm + block * determine_slot, 0);
    }
    workspace.ub[workspace.blocks * determine_slot] = 1;
    canopy::kernel::pipe_barrier_all();
}

// Waits until every block before this one has finished this block's current round.
__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
    using namespace canopy::kernel::ascendc;
    if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
    const DetermineWorkspace workspace = determine_workspace(gmWorkspace, ubWorkspace, "WaitPreBlock");
    canopy::kernel::pipe_barrier_all();
    const int32_t round = workspace.ub[workspace.blocks * determine_slot];
    while (!is_turn_of(workspace, round)) canopy::kernel::poll_other_blocks();
    canopy::kernel::pipe_barrier_all();
}

// Marks this block's round finished (the last block closes the round for everyone) and moves to the next.
__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
    using namespace canopy::kernel::ascendc;
    if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
    const DetermineWorkspace workspace = determine_workspace(gmWorkspace, ubWorkspace, "NotifyNextBlock");
    canopy::kernel::pipe_barrier_all();
    int32_t& round = workspace.ub[workspace.blocks * determine_slot];
    if (workspace.index + 1 == workspace.blocks) {
        for (int64_t block = 0; block < workspace.blocks; ++block) store_slot(workspace.gm + block * determine_slot, 0);
    } else {
        store_slot(workspace.gm + workspace.index * determine_slot, round);
    }
    ++round;
    canopy::kernel::pipe_barrier_all();
}

}  // namespace AscendC

namespace AscendC {

// Waits until every block of the launch has reached this call.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
    // As on the NPU, SyncAll begins with PipeBarrier<PIPE_ALL>: the block's own pipes are drained.
    canopy::kernel::pipe_barrier_all();
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
    canopy::kernel::pipe_barrier_all();
    canopy::kernel::sync_all();
}

// The base address in GM of the A2's FFTS cross-core flags (set_ffts_base_addr), which a mix kernel
// sets before its CrossCoreSetFlag / SyncAll; catlass's kernel adapter passes the host's
// aclrtGetHardwareSyncAddr. Canopy's cross-core flags are counters of the launch's group
// (cross_core.h), which need no memory of their own: there is nothing to point at it.
__aicore__ inline void SetSyncBaseAddr(uint64_t config) { static_cast<void>(config); }

}  // namespace AscendC

// The CCE intrinsic PipeBarrier is built on, taking its pipe as an argument: PIPE_ALL orders every
// instruction issued so far before every later one; a barrier on one of the A2's pipes orders
// nothing the pipe model tracks, as PipeBarrier<pipe>. PIPE_S, which the A2's PipeBarrier refuses,
// and values that are no pipe of the A2 fail the launch.
__aicore__ inline void pipe_barrier(pipe_t pipe) {
    if (pipe == PIPE_ALL) {
        canopy::kernel::pipe_barrier_all();
        return;
    }
    if (pipe == PIPE_S) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("pipe_barrier", "PIPE_S is not a pipe the A2 can barrier: the scalar "
                                             "pipe is ordered by the hardware");
    }
    canopy::kernel::ascendc::require_pipe(pipe, "pipe_barrier");
}
