#pragma once
// GroupBarrier: one group of AIVs (the arrivers) releases another (the waiters) through counters in
// global memory, round after round; and InitOutput, which kernels use to clear GM before such a
// hand-over.
//
// The workspace is Ascend C's, so that kernels size it the same way (GetWorkspaceLen): one 512-byte
// cache line per index up to max(arriveSize, waitSize); the arrive counter is the first word of a
// line, the wait counter the first word 64 bytes into it. Arrive adds 1 to the arrive counter of
// every line; Wait(i) spins until line i's arrive counter reaches round x arriveSize, then adds 1 to
// every wait counter; an arriver's next Arrive spins until the waiters of the previous round are all
// through. The waits need the other blocks running: like IBWait, GroupBarrier needs a launch whose
// blocks all run at once (the kernel compiler registers kernels reaching it cooperative), and a block
// spinning here unwinds when another block of the launch fails.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/system.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"

namespace AscendC {

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

// One counter of the barrier, padded to 64 bytes as on the NPU (one dcci unit).
struct BarrierInfo {
    volatile uint32_t head;
    uint32_t buffer[15];
};

constexpr uint32_t BARRIER_SIZE = 64;      // the wait counters' offset into each line
constexpr uint32_t BARRIER_MAX_AIV = 50;   // the most AIVs a barrier serves
constexpr uint16_t CACHE_LINE_LEN = 512;   // one line of counters per index

template <PipeMode pipeMode>
class GroupBarrier {
public:
    __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
        : workspace_(groupWorkspace), arriveSize_(arriveSizeIn), waitSize_(waitSizeIn) {
        using canopy::kernel::ascendc::fail_misuse;
        static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier supports PipeMode::MTE3_MODE only");
        if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
        canopy::kernel::require_blocks_at_once("GroupBarrier");
        const int64_t blocks = GetBlockNum();
        if (groupWorkspace == nullptr) [[unlikely]] fail_misuse("GroupBarrier", "the workspace is null");
        if (arriveSizeIn == 0 || waitSizeIn == 0 || arriveSizeIn > blocks || waitSizeIn > blocks ||
            arriveSizeIn > BARRIER_MAX_AIV || waitSizeIn > BARRIER_MAX_AIV) [[unlikely]] {
            fail_misuse("GroupBarrier", "arriveSize ", arriveSizeIn, " and waitSize ", waitSizeIn,
                        " must each be in [1, ", blocks < BARRIER_MAX_AIV ? blocks : int64_t(BARRIER_MAX_AIV),
                        "] (the launch's ", blocks, " blocks, at most ", BARRIER_MAX_AIV, ")");
        }
    }

    // This arriver's part of the current round; first waits until every waiter got through the last.
    __aicore__ inline void Arrive(uint32_t arriveIndex) {
        if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
        RequireIndex(arriveIndex, arriveSize_, "GroupBarrier::Arrive", "arriveIndex");
        if (round_ > 1) {
            const uint32_t expected = (round_ - 1) * waitSize_;
            const uint32_t* counter = Counter(arriveIndex, BARRIER_SIZE);
            while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) != expected) canopy::kernel::poll_other_blocks();
        }
        AddToEveryLine(0);
        ++round_;
        arrived_ = true;
    }

    // Waits until every arriver has arrived in this waiter's current round.
    __aicore__ inline void Wait(uint32_t waitIndex) {
        if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
        RequireIndex(waitIndex, waitSize_, "GroupBarrier::Wait", "waitIndex");
        const uint32_t round = arrived_ ? round_ - 1 : round_;
        const uint32_t expected = round * arriveSize_;
        const uint32_t* counter = Counter(waitIndex, 0);
        while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < expected) canopy::kernel::poll_other_blocks();
        AddToEveryLine(BARRIER_SIZE);
        if (!arrived_) ++round_;
        arrived_ = false;
    }

    __aicore__ inline uint64_t GetWorkspaceLen() {
        return uint64_t(arriveSize_ > waitSize_ ? arriveSize_ : waitSize_) * CACHE_LINE_LEN;
    }

private:
    GroupBarrier() = delete;

    uint32_t* Counter(uint32_t index, uint32_t offset) const {
        return reinterpret_cast<uint32_t*>(workspace_ + uint64_t(index) * CACHE_LINE_LEN + offset);
    }

    // The NPU's atomic-add copy of one 1 per line (MTE3, after the scalar writes before it).
    void AddToEveryLine(uint32_t offset) {
        const uint32_t lines = arriveSize_ > waitSize_ ? arriveSize_ : waitSize_;
        for (uint32_t line = 0; line < lines; ++line) __atomic_fetch_add(Counter(line, offset), 1u, __ATOMIC_ACQ_REL);
    }

    static void RequireIndex(uint32_t index, uint32_t size, const char* api, const char* name) {
        if (index >= size) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, name, " ", index, " is outside [0, ", size, ")");
        }
    }

    GM_ADDR workspace_ = nullptr;
    uint32_t arriveSize_ = 0;
    uint32_t waitSize_ = 0;
    uint32_t round_ = 1;
    bool arrived_ = false;  // Arrive was called in this round and Wait not yet
};

// Sets the first `size` elements of `gmWorkspaceAddr` to `value` (deprecated in Ascend C for Fill).
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
    if (::canopy::kernel::current_block().core_type != ::canopy::kernel::core_type_aiv) return;
    T* data = gmWorkspaceAddr.CheckedSpan(0, size, true, "InitOutput");
    // Every core of a kernel usually initializes the same workspace before a SyncAll; the stores
    // are atomic so that those concurrent writes of one value are defined on the CPU as well.
    for (uint32_t i = 0; i < size; ++i) {
        if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
            __atomic_store(data + i, &value, __ATOMIC_RELAXED);
        } else {
            data[i] = value;
        }
    }
}

}  // namespace AscendC
