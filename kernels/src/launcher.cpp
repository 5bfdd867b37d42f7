#include "canopy/kernel_runtime/launcher.h"
#include "deferred_moves.h"
#include "pipe_model.h"
#include "canopy/kernel_runtime/registry.h"

#include <cxxabi.h>

#include <cfenv>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/log.h"
#include "canopy/soc.h"

namespace canopy::kernel {

namespace {

// ---- Unified Buffer arenas

// A worker's Unified Buffer: allocated on the first block the thread runs, grown when a launch needs
// more, reused by every later block. 64-byte aligned (UB addresses must be 32-byte aligned).
class UbArena {
public:
    UbArena() = default;
    UbArena(UbArena&& other) noexcept : data_(std::exchange(other.data_, nullptr)), capacity_(other.capacity_) {}
    UbArena& operator=(UbArena&&) = delete;
    ~UbArena() { std::free(data_); }

    // nullptr when the memory cannot be had.
    std::byte* reserve(std::size_t bytes) {
        if (bytes <= capacity_ && data_) return data_;
        const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
        void* grown = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
        if (!grown) return nullptr;
        std::free(data_);
        data_ = static_cast<std::byte*>(grown);
        capacity_ = rounded;
        return data_;
    }

private:
    static constexpr std::size_t alignment = 64;
    std::byte* data_ = nullptr;
    std::size_t capacity_ = 0;
};

// One arena per nesting level: a block whose kernel waits inside TBB (a nested parallel copy) may
// run another block on the same thread meanwhile, and that block must not overwrite the UB of the
// one it interrupted.
struct ThreadArenas {
    std::vector<UbArena> by_depth;
    std::size_t depth = 0;
};
thread_local ThreadArenas thread_arenas;

// ---- What every block of a launch shares

struct LaunchState {
    const char* kernel;
    std::uint32_t num_blocks;
    std::size_t ub_bytes;
    const KernelCall& call;
    KernelCores cores;
    CooperativeGroup* group;
    engine::Stream& stream;
    std::uint64_t task;
    bool detects_overflow;
    bool saturates;  // the stream's float mode is saturation
    // Installed when the launch started: each block reports to it (the timeline's worker tracks).
    engine::Observer* observer = nullptr;
    // The launch's dynUBufSize, the last bytes of ub_bytes (extern __ubuf__ arrays, ub_array.h).
    std::size_t ub_dynamic_bytes = 0;
    // Set by the first failing block so that blocks not yet started are skipped.
    std::atomic<bool> failed{false};
    std::atomic<bool> overflowed{false};
    std::atomic<std::uint32_t> blocks_run{0};
};

constexpr int float_fault_flags = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;

// "kernel k block 3/8: ..." or, for a core of a mix kernel, "kernel k block 3/8 AIV 1: ...".
[[noreturn]] void fail_block(const LaunchState& launch, std::int64_t index, int code, const std::string& message,
                             const BlockContext* core = nullptr) {
    std::string where = "kernel " + std::string(launch.kernel) + " block " + std::to_string(index) + "/" +
                        std::to_string(launch.num_blocks);
    if (core != nullptr && launch.cores.mix) {
        where += std::string(core->core_type == core_type_aic ? " AIC " : " AIV ") + std::to_string(core->sub_block_idx);
    }
    throw engine::OperationError(code, where + ": " + message);
}

}  // namespace

// ---- Cooperative launches: all cores at once; SyncAll and the cross-core flags

// Thrown out of SyncAll / CrossCoreWaitFlag in the cores still waiting when another core of the
// launch failed, so that they unwind; never seen outside the launcher.
struct CooperativeAbort {};

namespace {

constexpr int cross_core_flags = 16;     // flag ids per core (modes 0, 1, 2)
constexpr int cross_core_max_count = 15; // what one flag's counter holds

// "AIV 1 of block 3", naming a core of a mix launch in messages.
std::string core_name(std::int32_t type, std::int64_t sub, std::int64_t index) {
    return std::string(type == core_type_aic ? "AIC" : "AIV") + " " + std::to_string(sub) + " of block " +
           std::to_string(index);
}

}  // namespace

// Every core of a cooperative launch, numbered block * per_block + slot (the AICs of a block
// first, then its AIVs). One mutex guards all of it: waits are rare and short next to the kernels.
class CooperativeGroup {
public:
    CooperativeGroup(std::uint32_t blocks, KernelCores cores)
        : blocks_(blocks), cores_(cores), per_block_(cores.per_block()), state_(std::size_t{blocks} * per_block_),
          live_(blocks * per_block_) {
        for (int kind = 0; kind < 2; ++kind) {
            round_arrived_[0][kind].assign(cross_core_flags, 0);
        }
        round_arrived_[1][0].assign(std::size_t{blocks} * cross_core_flags, 0);
        round_arrived_[2][0].assign(std::size_t{blocks} * cross_core_flags, 0);
    }

    std::uint32_t id_of(const BlockContext& block) const {
        const std::uint32_t slot =
            block.core_type == core_type_aic ? static_cast<std::uint32_t>(block.sub_block_idx)
                                             : cores_.aic + static_cast<std::uint32_t>(block.sub_block_idx);
        return static_cast<std::uint32_t>(block.index) * per_block_ + slot;
    }

    // SyncAll: returns when every core of the caller's type has arrived (the A2's SyncAll of a mix
    // kernel synchronizes its AIVs; a plain launch has one type).
    void arrive_and_wait(const BlockContext& block) {
        const std::uint32_t self = id_of(block);
        const int kind = kind_of(self);
        std::unique_lock lock(mutex_);
        if (aborted_) throw CooperativeAbort{};
        if (returned_[kind] > 0) {
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
                  std::to_string(returned_[kind]) + " block(s) of the launch have already returned (" +
                      first_returned_[kind] + " first) without reaching it, so this SyncAll can never complete "
                      "(every block must call SyncAll the same number of times)");
        }
        if (++barrier_waiting_[kind] == cores_of_kind(kind)) {
            barrier_waiting_[kind] = 0;
            for (std::uint32_t core = 0; core < state_.size(); ++core) {
                if (state_[core].in_barrier && kind_of(core) == kind) {
                    state_[core].in_barrier = false;
                    --blocked_;
                }
            }
            changed_.notify_all();
            return;
        }
        state_[self].in_barrier = true;
        block_and_wait(lock, self, [&] { return !state_[self].in_barrier; });
    }

    // CrossCoreSetFlag<mode>(flag) of the core `block`.
    void set_flag(const BlockContext& block, int mode, int flag) {
        const std::uint32_t self = id_of(block);
        const std::uint32_t group = self / per_block_;
        std::unique_lock lock(mutex_);
        if (aborted_) throw CooperativeAbort{};
        if (mode == 0) {
            const int kind = kind_of(self);
            round(0, self, round_arrived_[0][kind][flag], flag, kind_first(kind), kind_last(kind), true);
        } else if (mode == 1) {
            round(1, self, round_arrived_[1][0][group * cross_core_flags + flag], flag, group_aiv_first(group),
                  group_aiv_last(group), true);
        } else if (block.core_type == core_type_aic) {
            // Mode 2 from the AIC: each AIV of its logical core gets one.
            for (std::uint32_t core = group_aiv_first(group); core < group_aiv_last(group); ++core) raise_counter(core, flag);
        } else {
            // Mode 2 from an AIV: the AIC gets one once every AIV of the logical core has set.
            if (round(2, self, round_arrived_[2][0][group * cross_core_flags + flag], flag, group_aiv_first(group),
                      group_aiv_last(group), false)) {
                raise_counter(group * per_block_, flag);
            }
        }
        changed_.notify_all();
    }

    // CrossCoreWaitFlag(flag) of the core `block`.
    void wait_flag(const BlockContext& block, int flag) {
        const std::uint32_t self = id_of(block);
        std::unique_lock lock(mutex_);
        if (aborted_) throw CooperativeAbort{};
        CoreState& core = state_[self];
        if (core.counter[flag] == 0) {
            core.waiting_flag = flag;
            block_and_wait(lock, self, [&] { return core.waiting_flag < 0; });
        }
        --core.counter[flag];
    }

    // A core returned from the kernel. If others wait in SyncAll for its type they can never be
    // released: that is the returning core's fault (it skipped a SyncAll the others reached). If
    // every core still running waits, none of them can ever be released either.
    void leave(const BlockContext& block) {
        const std::uint32_t self = id_of(block);
        const int kind = kind_of(self);
        std::unique_lock lock(mutex_);
        if (returned_[kind]++ == 0) {
            first_returned_[kind] = per_block_ == 1 ? "block " + std::to_string(block.index)
                                                    : core_name(block.core_type, block.sub_block_idx, block.index);
        }
        --live_;
        if (aborted_) return;
        if (barrier_waiting_[kind] > 0) {
            const std::uint32_t waiting = barrier_waiting_[kind];
            aborted_ = true;
            changed_.notify_all();
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
                  "the block returned while " + std::to_string(waiting) + " other block(s) wait in SyncAll "
                  "(every block must call SyncAll the same number of times)");
        }
        if (live_ > 0 && blocked_ == live_) declare_deadlock(self, true);
    }

    bool aborted() {
        std::lock_guard lock(mutex_);
        return aborted_;
    }

    // A core failed: release the waiting cores (they unwind with CooperativeAbort).
    void abort() {
        std::lock_guard lock(mutex_);
        aborted_ = true;
        changed_.notify_all();
    }

private:
    struct CoreState {
        std::uint8_t counter[cross_core_flags] = {};
        // Sets of modes 0, 1 and 2 (from an AIV) not yet matched by the other participants.
        std::uint8_t pending[3][cross_core_flags] = {};
        int waiting_flag = -1;   // the flag a CrossCoreWaitFlag waits for
        bool in_barrier = false; // waiting in SyncAll
    };

    int kind_of(std::uint32_t core) const { return core % per_block_ < cores_.aic ? 0 : 1; }
    std::uint32_t cores_of_kind(int kind) const { return blocks_ * (kind == 0 ? cores_.aic : cores_.aiv); }
    // Mode 0 walks every core and picks those of its type.
    std::uint32_t kind_first(int) const { return 0; }
    std::uint32_t kind_last(int) const { return static_cast<std::uint32_t>(state_.size()); }
    std::uint32_t group_aiv_first(std::uint32_t group) const { return group * per_block_ + cores_.aic; }
    std::uint32_t group_aiv_last(std::uint32_t group) const { return (group + 1) * per_block_; }

    std::string describe(std::uint32_t core) const {
        const std::uint32_t slot = core % per_block_;
        const bool aic = slot < cores_.aic;
        return core_name(aic ? core_type_aic : core_type_aiv, aic ? slot : slot - cores_.aic, core / per_block_);
    }

    // One core's set of a round among the cores of [first, last) (of the setter's type): when each
    // of them has a pending set, one set of each is consumed and, when `to_participants`, each
    // participant's counter is raised. Returns whether the round completed.
    bool round(int mode, std::uint32_t self, std::uint32_t& arrived, int flag, std::uint32_t first, std::uint32_t last,
               bool to_participants) {
        const int kind = kind_of(self);
        std::uint8_t& pending = state_[self].pending[mode][flag];
        if (pending == cross_core_max_count) {
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
                  "mode " + std::to_string(mode) + " flag " + std::to_string(flag) + " already has " +
                      std::to_string(cross_core_max_count) +
                      " sets of this core the other cores of the mode have not matched (the scheduler counts to " +
                      std::to_string(cross_core_max_count) + ")");
        }
        if (pending++ == 0) ++arrived;
        std::uint32_t participants = 0;
        for (std::uint32_t core = first; core < last; ++core) participants += kind_of(core) == kind;
        if (arrived < participants) return false;
        arrived = 0;
        for (std::uint32_t core = first; core < last; ++core) {
            if (kind_of(core) != kind) continue;
            if (--state_[core].pending[mode][flag] > 0) ++arrived;
            if (to_participants) raise_counter(core, flag);
        }
        return true;
    }

    void raise_counter(std::uint32_t core, int flag) {
        CoreState& target = state_[core];
        if (target.counter[flag] == cross_core_max_count) {
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
                  "flag " + std::to_string(flag) + " of " + describe(core) + " already counts " +
                      std::to_string(cross_core_max_count) +
                      " sets it has not waited for (a flag's counter holds 0-15; every set needs its CrossCoreWaitFlag)");
        }
        ++target.counter[flag];
        if (target.waiting_flag == flag) {
            target.waiting_flag = -1;
            --blocked_;
        }
    }

    // Blocks the calling core until `released` (set by another core, which also takes it out of
    // `blocked_`). When this leaves every running core blocked, nothing can release any of them.
    template <class Released>
    void block_and_wait(std::unique_lock<std::mutex>& lock, std::uint32_t self, Released released) {
        ++blocked_;
        if (blocked_ == live_) declare_deadlock(self, false);
        changed_.wait(lock, [&] { return released() || aborted_ || deadlocked_; });
        if (released()) return;
        const bool culprit = deadlocked_ && culprit_ == self;
        if (!culprit) throw CooperativeAbort{};
        state_[self].waiting_flag = -1;
        state_[self].in_barrier = false;
        --blocked_;
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, culprit_api_, deadlock_message_);
    }

    // Every running core waits. The fault is the first core waiting for a flag (its wait can never
    // be satisfied); with only SyncAll waiters left it is the core that just returned.
    void declare_deadlock(std::uint32_t trigger, bool leaver) {
        std::string waits;
        std::uint32_t listed = 0, waiting = 0;
        std::int64_t culprit = -1;
        for (std::uint32_t core = 0; core < state_.size(); ++core) {
            const CoreState& c = state_[core];
            if (c.waiting_flag < 0 && !c.in_barrier) continue;
            ++waiting;
            if (c.waiting_flag >= 0 && culprit < 0) culprit = core;
            if (listed++ < 8) {
                waits += (waits.empty() ? "" : ", ") + describe(core) +
                         (c.in_barrier ? std::string(" in SyncAll")
                                       : " in CrossCoreWaitFlag(" + std::to_string(c.waiting_flag) + ")");
            }
        }
        if (listed > 8) waits += ", ...";
        const std::string others = "every core of the launch still running waits (" + waits + ") and the others have returned";
        if (culprit < 0) {
            aborted_ = true;
            changed_.notify_all();
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
                  std::string(leaver ? "the core returned while " : "") + others +
                      ", so no SyncAll can complete (every core must call SyncAll the same number of times)");
        }
        static_cast<void>(trigger);
        const CoreState& c = state_[static_cast<std::uint32_t>(culprit)];
        deadlocked_ = true;
        culprit_ = static_cast<std::uint32_t>(culprit);
        culprit_api_ = "CrossCoreWaitFlag";
        deadlock_message_ = "flag " + std::to_string(c.waiting_flag) + " of " + describe(culprit_) +
                            " is 0 and can never be set: " + others +
                            " (every CrossCoreWaitFlag needs the CrossCoreSetFlag of its mode from every core the mode "
                            "names)";
        changed_.notify_all();
        static_cast<void>(waiting);
    }

    const std::uint32_t blocks_;
    const KernelCores cores_;
    const std::uint32_t per_block_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<CoreState> state_;
    // Cores with a pending set, per mode, per scope (mode 0: the type; 1, 2: the logical core) and flag.
    std::vector<std::uint32_t> round_arrived_[3][2];
    std::uint32_t barrier_waiting_[2] = {0, 0};
    std::uint32_t returned_[2] = {0, 0};
    std::string first_returned_[2];  // the first core of each type that returned, for SyncAll's error
    std::uint32_t live_;        // cores not yet returned
    std::uint32_t blocked_ = 0; // cores waiting that nothing has released yet
    bool aborted_ = false;
    bool deadlocked_ = false;
    std::uint32_t culprit_ = 0;
    const char* culprit_api_ = "";
    std::string deadlock_message_;
};

void require_blocks_at_once(const char* api) {
    const BlockContext& block = current_block();
    if (block.kernel == nullptr) raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "called outside a kernel launch");
    land_all_deferred_moves();  // other blocks may write the GM this one's moves read
    land_all_deferred_stores();  // or read the GM its stores write
    if (block.group != nullptr || block.count == 1) return;
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
          "kernel " + std::string(block.kernel) + " runs its " + std::to_string(block.count) +
              " blocks block-parallel, a few at a time, so a block cannot wait for another; register it with "
              "CANOPY_REGISTER_COOPERATIVE_KERNEL(" + block.kernel + ") (the kernel compiler does so for a kernel "
              "reaching SyncAll or IBWait) to run all its blocks at once");
}

void poll_other_blocks() {
    const BlockContext& block = current_block();
    if (block.group != nullptr && block.group->aborted()) throw CooperativeAbort{};
    std::this_thread::yield();
}

void sync_all() {
    BlockContext& block = current_block();
    if (block.kernel == nullptr) raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll", "called outside a kernel launch");
    if (block.group) {
        block.group->arrive_and_wait(block);
        return;
    }
    if (block.count == 1 && block.cores.per_block() == 1) return;  // a barrier of one core
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
          "kernel " + std::string(block.kernel) + " runs its " + std::to_string(block.count) +
              " blocks block-parallel, a few at a time, so blocks cannot wait for each other; register it with "
              "CANOPY_REGISTER_COOPERATIVE_KERNEL(" + block.kernel + ") (the kernel compiler does so for a kernel "
              "reaching SyncAll) to run all its blocks at once");
}

namespace {

// What CrossCoreSetFlag and CrossCoreWaitFlag need of the running core: a __mix__ kernel (only it
// starts the scheduler), a cooperative launch (the cores wait for each other), a flag id in range.
BlockContext& cross_core_block(const char* api, int flag) {
    BlockContext& block = current_block();
    if (block.kernel == nullptr) raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "called outside a kernel launch");
    land_all_deferred_moves();  // other cores may write the GM this one's moves read
    land_all_deferred_stores();  // or read the GM its stores write
    if (!block.cores.mix) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
              "kernel " + std::string(block.kernel) +
                  " is not a __mix__ kernel; the cross-core flags need the scheduler only a mix kernel starts "
                  "(declare it __global__ __mix__(1, 2), or __mix__(0, 1) for AIVs only)");
    }
    if (flag < 0 || flag >= cross_core_flags) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
              "flagId " + std::to_string(flag) + " is outside [0, " + std::to_string(cross_core_flags - 1) +
                  "] (modes 0, 1 and 2 have 16 flags per core)");
    }
    if (block.group == nullptr) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
              "kernel " + std::string(block.kernel) + " runs its cores block-parallel, a few at a time, so a core "
              "cannot wait for another; the kernel compiler runs a kernel reaching CrossCoreWaitFlag with all its "
              "cores at once (or register it with CANOPY_REGISTER_COOPERATIVE_KERNEL(" +
                  block.kernel + "))");
    }
    return block;
}

const char* cross_core_pipe_name(int pipe) {
    switch (pipe) {
        case 1: return "PIPE_V";
        case 2: return "PIPE_M";
        case 3: return "PIPE_MTE1";
        case 4: return "PIPE_MTE2";
        case 5: return "PIPE_MTE3";
        case 10: return "PIPE_FIX";
        default: return nullptr;
    }
}

}  // namespace

void cross_core_set_flag(int mode, int pipe, std::uint16_t flag) {
    BlockContext& block = cross_core_block("CrossCoreSetFlag", flag);
    if (mode != 0 && mode != 1 && mode != 2) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
              "modeId " + std::to_string(mode) + " is not a mode of the A2 (0: all cores of the type, 1: the AIVs of "
              "a logical core, 2: its AIC and its AIVs)");
    }
    if (cross_core_pipe_name(pipe) == nullptr) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
              "pipe " + std::to_string(pipe) + " cannot report a cross-core flag (PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, "
              "PIPE_MTE3 or PIPE_FIX; not PIPE_S or PIPE_ALL)");
    }
    if (mode != 0 && (block.cores.aic == 0 || block.cores.aiv == 0)) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
              "mode " + std::to_string(mode) + " synchronizes within a logical core of an AIC and AIVs, and kernel " +
                  block.kernel + " is __mix__(" + std::to_string(block.cores.aic) + ", " +
                  std::to_string(block.cores.aiv) + ") (modes 1 and 2 need __mix__(1, 1) or __mix__(1, 2))");
    }
    if (mode == 1 && block.core_type != core_type_aiv) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, "CrossCoreSetFlag",
              "mode 1 synchronizes the AIVs of a logical core; the AIC cannot take part");
    }
    block.group->set_flag(block, mode, flag);
}

void cross_core_wait_flag(std::uint16_t flag) {
    BlockContext& block = cross_core_block("CrossCoreWaitFlag", flag);
    block.group->wait_flag(block, flag);
}

namespace {

// Runs blocks of one launch on the calling thread: installs the launch's block context and UB for
// its lifetime and restores what was there before (another launch's block, when this thread was
// borrowed while that block waited).
class BlockRunner {
public:
    explicit BlockRunner(LaunchState& launch)
        : launch_(launch),
          block_(current_block()),
          block_idx_(&::block_idx),
          block_num_(&::block_num),
          saved_{block_.index, block_.count, block_.ub, block_.ub_bytes, block_.ub_dynamic_bytes, block_.ub_arrays,
                 block_.kernel, block_.group,
                 *block_idx_, *block_num_, block_.vector, block_.registers, block_.core_type,
                 block_.sub_block_idx, block_.task_ratio, block_.cores, block_.pipes, block_.moves,
                 deferred_move_count, deferred_store_count} {
        ThreadArenas& arenas = thread_arenas;
        if (arenas.by_depth.size() <= arenas.depth) arenas.by_depth.resize(arenas.depth + 1);
        std::byte* ub = arenas.by_depth[arenas.depth].reserve(launch.ub_bytes);
        if (!ub) {
            throw engine::OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION,
                                         "kernel " + std::string(launch.kernel) + ": cannot allocate its " +
                                             std::to_string(launch.ub_bytes) + "-byte Unified Buffer");
        }
        ++arenas.depth;
        saved_unwinding_fault_ = std::exchange(unwinding_fault(), std::nullopt);
        saved_deferred_code_ = std::exchange(block_.deferred_code, 0);
        if (saved_deferred_code_) saved_deferred_message_ = std::move(block_.deferred_message);
        block_.deferred_message.clear();
        block_.count = launch.num_blocks;
        ub_ = ub;
        block_.ub = ub;
        block_.ub_bytes = launch.ub_bytes;
        block_.ub_dynamic_bytes = launch.ub_dynamic_bytes;
        block_.kernel = launch.kernel;
        block_.cores = launch.cores;
        block_.group = launch.group;
        block_.pipes = &pipes_;
        block_.moves = &moves_;
        *block_num_ = launch.num_blocks;
        launch.stream.device().enter_kernel();
    }

    ~BlockRunner() {
        launch_.blocks_run.fetch_add(blocks_run_, std::memory_order_relaxed);
        launch_.stream.device().leave_kernel();
        --thread_arenas.depth;
        block_.index = saved_.index;
        block_.count = saved_.count;
        block_.ub = saved_.ub;
        block_.ub_bytes = saved_.ub_bytes;
        block_.ub_dynamic_bytes = saved_.ub_dynamic_bytes;
        block_.ub_arrays = saved_.ub_arrays;
        block_.kernel = saved_.kernel;
        block_.group = saved_.group;
        block_.vector = saved_.vector;
        block_.registers = saved_.registers;
        block_.core_type = saved_.core_type;
        block_.sub_block_idx = saved_.sub_block_idx;
        block_.task_ratio = saved_.task_ratio;
        block_.cores = saved_.cores;
        block_.pipes = saved_.pipes;
        block_.moves = saved_.moves;
        deferred_move_count = saved_.deferred_move_count;
        deferred_store_count = saved_.deferred_store_count;
        unwinding_fault() = std::move(saved_unwinding_fault_);
        block_.deferred_code = saved_deferred_code_;
        block_.deferred_message = std::move(saved_deferred_message_);
        *block_idx_ = saved_.block_idx;
        *block_num_ = saved_.block_num;
    }

    BlockRunner(const BlockRunner&) = delete;
    BlockRunner& operator=(const BlockRunner&) = delete;

    // Runs core `slot` of one block (the AICs of a block come first, then its AIVs); throws
    // OperationError naming kernel, block and core when it faults.
    void run(std::int64_t index, std::uint32_t slot = 0) {
        if (launch_.stream.stop_requested(launch_.task)) {
            launch_.failed.store(true, std::memory_order_relaxed);
            throw engine::OperationError(ACL_ERROR_RT_STREAM_ABORT,
                                         "kernel " + std::string(launch_.kernel) +
                                             " stopped (aclrtStreamStop / aclrtStreamAbort) after " +
                                             std::to_string(launch_.blocks_run.load() + blocks_run_) + " of its " +
                                             std::to_string(launch_.num_blocks) + " blocks");
        }
        // The flags are per thread (MXCSR / x87 status): cleared before the block, read after it.
        if (launch_.detects_overflow) std::feclearexcept(float_fault_flags);
        block_.index = index;
        *block_idx_ = index;
        block_.vector = VectorRegisters{};
        block_.registers = CoreRegisters{};
        block_.saturates = launch_.saturates;
        block_.detects_overflow = launch_.detects_overflow;
        const KernelCores cores = launch_.cores;
        const bool aic = slot < cores.aic;
        block_.core_type = aic ? core_type_aic : core_type_aiv;
        block_.sub_block_idx = aic ? slot : slot - cores.aic;
        block_.task_ratio = aic ? cores.aic : cores.aiv;
        // An AIC has no Unified Buffer: its vector and UB copies fail as "no Unified Buffer".
        block_.ub = aic ? nullptr : ub_;
        block_.ub_bytes = aic ? 0 : launch_.ub_bytes;
        block_.ub_dynamic_bytes = aic ? 0 : launch_.ub_dynamic_bytes;
        block_.ub_arrays.count = 0;
        block_.ub_arrays.top = 0;
        pipes_.reset();
        moves_.reset();
        unwinding_fault().reset();
        // Reported on the way out however the block ends, so that a failed block shows too.
        struct BlockReport {
            const LaunchState& launch;
            std::int64_t index;
            std::uint32_t slot;
            bool aic;
            std::int64_t begin_ns;
            ~BlockReport() {
                if (!launch.observer) return;
                launch.observer->on_block(engine::BlockRecord{
                    launch.kernel, launch.stream.device().id(), launch.stream.id(), launch.task,
                    static_cast<std::uint32_t>(index), launch.num_blocks, slot, aic, begin_ns, engine::now_ns()});
            }
        } report{launch_, index, slot, aic, launch_.observer ? engine::now_ns() : 0};
        try {
            launch_.call();
            moves_.finish();
            pipes_.finish();
        } catch (const KernelFault& fault) {
            fail(index, fault.code, fault.message);
        } catch (const CooperativeAbort&) {
            throw;
        } catch (const abi::__forced_unwind&) {
            throw;  // thread cancellation must go on unwinding
        } catch (const std::exception& error) {
            fail(index, ACL_ERROR_RT_AICORE_EXCEPTION, std::string("the kernel threw: ") + error.what());
        } catch (...) {
            fail(index, ACL_ERROR_RT_AICORE_EXCEPTION, "the kernel threw a non-standard exception");
        }
        ++blocks_run_;
        if (launch_.detects_overflow && std::fetestexcept(float_fault_flags))
            launch_.overflowed.store(true, std::memory_order_relaxed);
        if (block_.deferred_code != 0) {
            const int code = std::exchange(block_.deferred_code, 0);
            const std::string message = std::move(block_.deferred_message);
            block_.deferred_message.clear();
            fail(index, code, message);
        }
    }

private:
    [[noreturn]] void fail(std::int64_t index, int code, const std::string& message) {
        moves_.abandon();
        launch_.failed.store(true, std::memory_order_relaxed);
        block_.deferred_code = 0;
        block_.deferred_message.clear();
        fail_block(launch_, index, code, message, &block_);
    }

    struct Saved {
        std::int64_t index;
        std::int64_t count;
        std::byte* ub;
        std::size_t ub_bytes;
        std::size_t ub_dynamic_bytes;
        UbArrays ub_arrays;
        const char* kernel;
        CooperativeGroup* group;
        std::int64_t block_idx;
        std::int64_t block_num;
        VectorRegisters vector;
        CoreRegisters registers;
        std::int32_t core_type;
        std::int64_t sub_block_idx;
        std::int64_t task_ratio;
        KernelCores cores;
        PipeCounters* pipes;
        DeferredMoves* moves;
        std::uint32_t deferred_move_count;
        std::uint32_t deferred_store_count;
    };

    LaunchState& launch_;
    BlockContext& block_;
    std::int64_t* const block_idx_;
    std::int64_t* const block_num_;
    const Saved saved_;
    std::byte* ub_ = nullptr;
    PipeState pipes_;
    DeferredMoves moves_;
    int saved_deferred_code_ = 0;
    std::string saved_deferred_message_;
    std::optional<KernelFault> saved_unwinding_fault_;
    // Blocks this runner finished, added to the launch's count once, when the runner ends: one
    // shared increment per block was half the cost of a launch of 1024 empty blocks.
    std::uint32_t blocks_run_ = 0;
};

// ---- Block-parallel launches

// The cores of one block of a launch that is not cooperative run one after another on the thread
// (they cannot wait for each other, and without the cross-core flags nothing orders them).
void run_cores(BlockRunner& runner, const LaunchState& launch, std::uint32_t index) {
    const std::uint32_t per_block = launch.cores.per_block();
    for (std::uint32_t slot = 0; slot < per_block; ++slot) runner.run(index, slot);
}

// Blocks run in lanes: one task per thread of the arena (or per core allowed under a core limit),
// each running blocks one at a time on one BlockRunner and claiming them from a shared counter in
// chunks of a share of what is left, so that early claims are large (few atomic claims for
// many small blocks) and the last are single blocks (no thread idles while another has a queue of
// them). Measured against tbb::parallel_for (bench/kernel_launch_bench, bench/kernel_ops_bench on
// the 2-vCPU VM, launch + synchronize, time ratio to the raw loop; docs/PERFORMANCE.md):
//
//   blocks onto threads                  1024 empty blocks      add kernel, 64 blocks of 256K floats
//   parallel_for, simple, grain 1        19x-30x (120-220 us)   -
//   parallel_for, auto, grain n/(4 P)    2.9x-3.0x (13-15 us)   1.25x-1.39x
//   parallel_for, auto, grain 1          6.5x-10x (33-47 us)    1.14x-1.16x
//   lanes, chunks of (n - claimed)/(2 P) 2.1x-2.4x (10-11 us)   1.24x-1.36x
//   the same, P capped at the hardware   2.15x-2.23x (10 us)    1.18x-1.28x
//
// A range of parallel_for cannot be split below its grain, so with the bounded grain a thread that
// finishes early waits for the others' last ranges of five 85-us blocks; with grain 1 each stolen
// range builds a BlockRunner, which costs more than an empty block. A lane builds one. The host
// thread that synchronizes joins the arena and takes a lane too; a lane that a busy worker never
// starts finds nothing left to claim.
void run_lanes(LaunchState& launch, std::uint32_t lanes) {
    std::atomic<std::uint32_t> claimed{0};
    const std::uint32_t blocks = launch.num_blocks;
    auto lane = [&launch, &claimed, blocks, lanes](const oneapi::tbb::blocked_range<std::uint32_t>&) {
        BlockRunner runner(launch);
        std::uint32_t first = claimed.load(std::memory_order_relaxed);
        while (first < blocks) {
            const std::uint32_t take = std::max<std::uint32_t>(1, (blocks - first) / (2 * lanes));
            if (!claimed.compare_exchange_weak(first, first + take, std::memory_order_relaxed)) continue;
            for (std::uint32_t index = first; index != first + take; ++index) {
                if (launch.failed.load(std::memory_order_relaxed)) return;
                run_cores(runner, launch, index);
            }
            first = claimed.load(std::memory_order_relaxed);
        }
    };
    // Isolated: while this thread waits for the launch's blocks it takes no other task of the arena
    // (another stream's callback or launch), which could delay this launch by its whole duration.
    oneapi::tbb::this_task_arena::isolate([&] {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint32_t>(0, lanes, 1), lane,
                                  oneapi::tbb::simple_partitioner());
    });
}

// `cap`: how many blocks may run at once under the core limits in force at enqueue (0: none); a
// lane runs one block at a time, so `cap` lanes keep to it.
void run_block_parallel(LaunchState& launch, std::uint32_t cap) {
    if (launch.num_blocks == 1) {
        // No task for a single block: its setup would be most of the launch's cost.
        BlockRunner runner(launch);
        run_cores(runner, launch, 0);
        return;
    }
    // No more lanes than the machine runs at once: the arena has a slot more than the device's
    // workers for a synchronizing host thread, and a third lane on two cores only time-shares them
    // (the memory-bound add 4-8% slower).
    static const auto hardware_threads = static_cast<std::uint32_t>(oneapi::tbb::info::default_concurrency());
    const auto threads = static_cast<std::uint32_t>(oneapi::tbb::this_task_arena::max_concurrency());
    std::uint32_t lanes = std::min({threads, hardware_threads, launch.num_blocks});
    if (cap != 0) lanes = std::min(lanes, cap);
    run_lanes(launch, lanes);
}

// ---- Cooperative launches

void run_cooperative(LaunchState& launch) {
    CooperativeGroup group(launch.num_blocks, launch.cores);
    launch.group = &group;
    std::mutex fault_mutex;
    int fault_code = 0;
    std::string fault_message;
    const std::uint32_t per_block = launch.cores.per_block();
    const std::uint32_t core_count = launch.num_blocks * per_block;

    auto run_one = [&](std::uint32_t core) {
        const std::uint32_t index = core / per_block;
        try {
            BlockRunner runner(launch);
            runner.run(index, core % per_block);
            try {
                group.leave(current_block());
            } catch (const KernelFault& fault) {
                fail_block(launch, index, fault.code, fault.message, &current_block());
            }
        } catch (const engine::OperationError& error) {
            {
                std::lock_guard lock(fault_mutex);
                if (fault_code == 0) {
                    fault_code = error.code();
                    fault_message = error.what();
                }
            }
            group.abort();
        } catch (const CooperativeAbort&) {
            // Another core failed first; its fault is the launch's.
        }
    };

    std::vector<std::thread> threads;
    threads.reserve(core_count - 1);
    try {
        for (std::uint32_t core = 1; core < core_count; ++core) threads.emplace_back(run_one, core);
    } catch (const std::system_error& error) {
        group.abort();
        for (std::thread& thread : threads) thread.join();
        throw engine::OperationError(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
                                     "kernel " + std::string(launch.kernel) + ": cannot start a thread for core " +
                                         std::to_string(threads.size() + 1) + " of its cooperative launch of " +
                                         std::to_string(launch.num_blocks) + " blocks (" +
                                         std::to_string(core_count) + " cores): " + error.what());
    }
    run_one(0);
    for (std::thread& thread : threads) thread.join();
    if (fault_code != 0) throw engine::OperationError(fault_code, fault_message);
}

// The operation's work. Kept within the engine's 64 bytes of inline storage (so enqueueing a launch
// allocates nothing): the call and the plan packed into 16 bytes.
struct LaunchWork {
    KernelCall call;
    const char* kernel;
    std::uint32_t dyn_ubuf_bytes;
    std::uint16_t blocks_minus_one;  // numBlocks - 1: [0, 65534]
    // Bit 0: cooperative; bit 1: a mix kernel; bit 2: one AIC per block; bits 3-4: AIVs per block.
    std::uint8_t shape;
    std::uint8_t cap;  // blocks_at_once when enqueued (a limit is at most the 48 vector cores)

    static std::uint8_t pack(bool cooperative, KernelCores cores) {
        return static_cast<std::uint8_t>((cooperative ? 1 : 0) | (cores.mix ? 2 : 0) | (cores.aic << 2) | (cores.aiv << 3));
    }

    void operator()(engine::OpRun& run) {
        engine::Stream& stream = run.stream();
        const bool cooperative = (shape & 1) != 0;
        const KernelCores cores{static_cast<std::uint8_t>((shape >> 2) & 1), static_cast<std::uint8_t>((shape >> 3) & 3),
                                (shape & 2) != 0};
        LaunchState launch{kernel, std::uint32_t{blocks_minus_one} + 1, stream.device().config().ub_bytes + dyn_ubuf_bytes,
                           call, cores, nullptr, stream, run.task_id(), stream.overflow_detection(),
                           stream.float_mode() == engine::FloatMode::saturation, run.observer()};
        launch.ub_dynamic_bytes = dyn_ubuf_bytes;
        // Recorded even when a block faults: the flags it raised before the fault are real.
        struct OverflowRecorder {
            LaunchState& launch;
            ~OverflowRecorder() {
                if (launch.overflowed.load(std::memory_order_relaxed)) launch.stream.device().record_overflow();
            }
        } recorder{launch};
        if (cooperative) run_cooperative(launch);
        else run_block_parallel(launch, cap);
    }
};
static_assert(sizeof(LaunchWork) <= 64, "a launch should fit the engine's inline operation storage");

}  // namespace

namespace {
// The core limit of a kind that governs a launch on `stream`: the stream's own
// (aclrtSetStreamResLimit) takes precedence over the device's (aclrtSetDeviceResLimit), as CANN
// documents their priority; 0 when neither is set.
std::uint32_t core_limit(const engine::Stream& stream, engine::CoreKind kind) {
    const std::uint32_t own = stream.core_limit(kind);
    return own != 0 ? own : stream.device().core_limit(kind);
}

// How many blocks of a launch may run at once (0: no limit). A block occupies its kernel's cores:
// one AIC for a __cube__ kernel, one AIV for a __vector__ one, an AIC and its AIVs for a __mix__
// one; each kind of core that the kernel uses caps the blocks, and the tighter cap holds. Taken
// when the launch is enqueued: a limit set later applies to later launches only.
std::uint8_t blocks_at_once(const engine::Stream& stream, KernelCores cores) {
    std::uint32_t cap = 0;
    auto apply = [&](engine::CoreKind kind, std::uint32_t per_block) {
        const std::uint32_t limit = core_limit(stream, kind);
        if (per_block == 0 || limit == 0) return;
        const std::uint32_t blocks = std::max<std::uint32_t>(1, limit / per_block);
        cap = cap == 0 ? blocks : std::min(cap, blocks);
    };
    apply(engine::CoreKind::cube, cores.aic);
    apply(engine::CoreKind::vector, cores.aiv);
    return static_cast<std::uint8_t>(std::min<std::uint32_t>(cap, 255));
}
}  // namespace

namespace {
std::string part_text(std::uint32_t npu_arch) {
    const soc::Part* part = soc::find_part(npu_arch);
    return part != nullptr ? std::string(part->arch) + " (" + part->family + ")"
                           : "__NPU_ARCH__ " + std::to_string(npu_arch) + ", a part Canopy does not model";
}

// A kernel runs only on a SoC of the part it is built for.
void check_part(const LaunchPlan& plan) {
    const soc::Part& modelled = soc::modelled_part();
    if (plan.npu_arch == 0 || plan.npu_arch == static_cast<std::uint32_t>(modelled.npu_arch)) return;
    std::string socs;
    for (const soc::Model& model : soc::models) {
        if (model.part->npu_arch == plan.npu_arch && socs.empty()) socs = model.name;
    }
    const std::string message =
        "kernel " + std::string(plan.kernel) + " is built for " + part_text(plan.npu_arch) + ", but the runtime models " +
        soc::modelled().name + ", a " + modelled.arch + " part (" + modelled.family + "): run it with " +
        soc::environment_variable + (socs.empty() ? std::string(" naming a SoC of its part") : "=" + socs) +
        " or build it with --npu-arch=" + modelled.arch;
    // Also logged, as CANN's runtime logs a refused launch: a program that ignores the launch's
    // result (as `<<<>>>` launches often do) still learns why its kernel did not run.
    engine::log_error(message + " (error " + std::to_string(ACL_ERROR_RT_SOC_VERSION) + ")");
    throw engine::OperationError(ACL_ERROR_RT_SOC_VERSION, message);
}
}  // namespace

void enqueue_launch(engine::Stream& stream, const LaunchPlan& plan, KernelCall&& call) {
    check_part(plan);
    const KernelCores cores = plan.cores;
    stream.enqueue(engine::Operation{
        engine::OpKind::kernel, plan.num_blocks, plan.kernel,
        LaunchWork{std::move(call), plan.kernel, plan.dyn_ubuf_bytes,
                   static_cast<std::uint16_t>(plan.num_blocks - 1), LaunchWork::pack(plan.cooperative, cores),
                   blocks_at_once(stream, cores)},
        plan.symbol});
}

}  // namespace canopy::kernel
