#include "launcher.h"
#include "pipe_model.h"

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
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "acl/acl_base.h"
#include "canopy/engine/device.h"
#include "canopy/engine/failure.h"

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
    CooperativeGroup* group;
    engine::Stream& stream;
    std::uint64_t task;
    bool detects_overflow;
    // Set by the first failing block so that blocks not yet started are skipped.
    std::atomic<bool> failed{false};
    std::atomic<bool> overflowed{false};
    std::atomic<std::uint32_t> blocks_run{0};
};

constexpr int float_fault_flags = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;

[[noreturn]] void fail_block(const LaunchState& launch, std::int64_t index, int code, const std::string& message) {
    throw engine::OperationError(code, "kernel " + std::string(launch.kernel) + " block " + std::to_string(index) +
                                           "/" + std::to_string(launch.num_blocks) + ": " + message);
}

}  // namespace

// ---- Cooperative launches: all blocks at once, SyncAll as a barrier

// Thrown out of SyncAll in the blocks still waiting when another block of the launch failed, so
// that they unwind; never seen outside the launcher.
struct CooperativeAbort {};

class CooperativeGroup {
public:
    explicit CooperativeGroup(std::uint32_t blocks) : blocks_(blocks) {}

    // SyncAll: returns when every block has arrived.
    void arrive_and_wait() {
        std::unique_lock lock(mutex_);
        if (aborted_) throw CooperativeAbort{};
        if (returned_ > 0) {
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
                  std::to_string(returned_) + " block(s) of the launch have already returned, so this SyncAll "
                  "can never complete (every block must call SyncAll the same number of times)");
        }
        if (++waiting_ == blocks_) {
            waiting_ = 0;
            ++generation_;
            released_.notify_all();
            return;
        }
        const std::uint64_t generation = generation_;
        released_.wait(lock, [&] { return generation_ != generation || aborted_; });
        if (generation_ == generation) throw CooperativeAbort{};
    }

    // A block returned from the kernel. If others wait in SyncAll they can never be released: that
    // is the returning block's fault (it skipped a SyncAll the others reached).
    void leave() {
        std::lock_guard lock(mutex_);
        ++returned_;
        if (waiting_ > 0 && !aborted_) {
            const std::uint32_t waiting = waiting_;
            aborted_ = true;
            released_.notify_all();
            raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
                  "the block returned while " + std::to_string(waiting) + " other block(s) wait in SyncAll "
                  "(every block must call SyncAll the same number of times)");
        }
    }

    bool aborted() {
        std::lock_guard lock(mutex_);
        return aborted_;
    }

    // A block failed: release the waiting blocks (they unwind with CooperativeAbort).
    void abort() {
        std::lock_guard lock(mutex_);
        aborted_ = true;
        released_.notify_all();
    }

private:
    const std::uint32_t blocks_;
    std::mutex mutex_;
    std::condition_variable released_;
    std::uint32_t waiting_ = 0;
    std::uint32_t returned_ = 0;
    std::uint64_t generation_ = 0;
    bool aborted_ = false;
};

void require_blocks_at_once(const char* api) {
    const BlockContext& block = current_block();
    if (block.kernel == nullptr) raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "called outside a kernel launch");
    if (block.group != nullptr || block.count == 1) return;
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
          "kernel " + std::string(block.kernel) + " runs its " + std::to_string(block.count) +
              " blocks block-parallel, a few at a time, so a block cannot wait for another; register it with "
              "CANOPY_REGISTER_COOPERATIVE_KERNEL(" + block.kernel + ") (canopy_add_kernels does so for sources "
              "that call SyncAll or IBWait) to run all its blocks at once");
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
        block.group->arrive_and_wait();
        return;
    }
    if (block.count == 1) return;  // a barrier of one block
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll",
          "kernel " + std::string(block.kernel) + " runs its " + std::to_string(block.count) +
              " blocks block-parallel, a few at a time, so blocks cannot wait for each other; register it with "
              "CANOPY_REGISTER_COOPERATIVE_KERNEL(" + block.kernel + ") (canopy_add_kernels does so for sources "
              "that call SyncAll) to run all its blocks at once");
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
          saved_{block_.index, block_.count, block_.ub, block_.ub_bytes, block_.kernel, block_.group,
                 *block_idx_, *block_num_, block_.vector, block_.registers, block_.core_type,
                 block_.sub_block_idx, block_.task_ratio, block_.pipes} {
        ThreadArenas& arenas = thread_arenas;
        if (arenas.by_depth.size() <= arenas.depth) arenas.by_depth.resize(arenas.depth + 1);
        std::byte* ub = arenas.by_depth[arenas.depth].reserve(launch.ub_bytes);
        if (!ub) {
            throw engine::OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION,
                                         "kernel " + std::string(launch.kernel) + ": cannot allocate its " +
                                             std::to_string(launch.ub_bytes) + "-byte Unified Buffer");
        }
        ++arenas.depth;
        saved_deferred_code_ = std::exchange(block_.deferred_code, 0);
        if (saved_deferred_code_) saved_deferred_message_ = std::move(block_.deferred_message);
        block_.deferred_message.clear();
        block_.count = launch.num_blocks;
        block_.ub = ub;
        block_.ub_bytes = launch.ub_bytes;
        block_.kernel = launch.kernel;
        block_.group = launch.group;
        block_.pipes = &pipes_;
        *block_num_ = launch.num_blocks;
        launch.stream.device().enter_kernel();
    }

    ~BlockRunner() {
        launch_.stream.device().leave_kernel();
        --thread_arenas.depth;
        block_.index = saved_.index;
        block_.count = saved_.count;
        block_.ub = saved_.ub;
        block_.ub_bytes = saved_.ub_bytes;
        block_.kernel = saved_.kernel;
        block_.group = saved_.group;
        block_.vector = saved_.vector;
        block_.registers = saved_.registers;
        block_.core_type = saved_.core_type;
        block_.sub_block_idx = saved_.sub_block_idx;
        block_.task_ratio = saved_.task_ratio;
        block_.pipes = saved_.pipes;
        block_.deferred_code = saved_deferred_code_;
        block_.deferred_message = std::move(saved_deferred_message_);
        *block_idx_ = saved_.block_idx;
        *block_num_ = saved_.block_num;
    }

    BlockRunner(const BlockRunner&) = delete;
    BlockRunner& operator=(const BlockRunner&) = delete;

    // Runs one block; throws OperationError naming kernel and block when it faults.
    void run(std::int64_t index) {
        if (launch_.stream.stop_requested(launch_.task)) {
            launch_.failed.store(true, std::memory_order_relaxed);
            throw engine::OperationError(ACL_ERROR_RT_STREAM_ABORT,
                                         "kernel " + std::string(launch_.kernel) +
                                             " stopped (aclrtStreamStop / aclrtStreamAbort) after " +
                                             std::to_string(launch_.blocks_run.load()) + " of its " +
                                             std::to_string(launch_.num_blocks) + " blocks");
        }
        // The flags are per thread (MXCSR / x87 status): cleared before the block, read after it.
        if (launch_.detects_overflow) std::feclearexcept(float_fault_flags);
        block_.index = index;
        *block_idx_ = index;
        block_.vector = VectorRegisters{};
        block_.registers = CoreRegisters{};
        block_.core_type = core_type_aiv;
        block_.sub_block_idx = 0;
        block_.task_ratio = 1;
        pipes_.reset();
        try {
            launch_.call();
            pipe_finish_block();
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
        launch_.blocks_run.fetch_add(1, std::memory_order_relaxed);
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
        launch_.failed.store(true, std::memory_order_relaxed);
        block_.deferred_code = 0;
        block_.deferred_message.clear();
        fail_block(launch_, index, code, message);
    }

    struct Saved {
        std::int64_t index;
        std::int64_t count;
        std::byte* ub;
        std::size_t ub_bytes;
        const char* kernel;
        CooperativeGroup* group;
        std::int64_t block_idx;
        std::int64_t block_num;
        VectorRegisters vector;
        CoreRegisters registers;
        std::int32_t core_type;
        std::int64_t sub_block_idx;
        std::int64_t task_ratio;
        PipeState* pipes;
    };

    LaunchState& launch_;
    BlockContext& block_;
    std::int64_t* const block_idx_;
    std::int64_t* const block_num_;
    const Saved saved_;
    PipeState pipes_;
    int saved_deferred_code_ = 0;
    std::string saved_deferred_message_;
};

// ---- Block-parallel launches

// How blocks map onto tbb::parallel_for, chosen by measurement (bench/kernel_launch_bench on the
// 2-vCPU VM, launch + synchronize, ratio to a raw auto-partitioned parallel_for over the same 1024
// blocks; several runs each, the machine shared with concurrent builds, so spreads are wide):
//
//   partitioner                         1024 empty blocks          vector add 16M floats, 1024 blocks
//   simple, grain 1 (a task per block)  19x-30x (120-220 us)       1.0x-1.2x
//   auto, grain 1                       2.0x-3.1x (11-17 us)       1.0x-1.5x
//   static                              0.9x-1.8x, median ~1.15x   0.6x-1.2x
//   simple, grain n/(4 P)               0.8x-1.8x, median ~1.1x    0.85x-1.35x
//   auto, grain n/(4 P)                 0.8x-1.2x, median ~1.1x    0.9x-1.4x
//
// A task per block costs more than an empty block's work; the bounded grain keeps the number of
// ranges (each installs the block context and the UB arena) near four per worker. Of the cheap
// ones, auto with that grain is kept over static: static cannot move a range away from a worker
// that is busy with another stream's operation, while auto splits further when work is stolen.
// Compute-bound launches are within noise of the raw loop with every partitioner.
// Under a core limit: `cores` lanes, each a task that runs one block at a time, taking the next
// unclaimed block until none is left, so that at most `cores` blocks ever run at once.
void run_limited(LaunchState& launch, std::uint32_t cores) {
    std::atomic<std::uint32_t> next{0};
    auto lane = [&launch, &next](const oneapi::tbb::blocked_range<std::uint32_t>&) {
        BlockRunner runner(launch);
        for (std::uint32_t index = next.fetch_add(1); index < launch.num_blocks; index = next.fetch_add(1)) {
            if (launch.failed.load(std::memory_order_relaxed)) return;
            runner.run(index);
        }
    };
    oneapi::tbb::this_task_arena::isolate([&] {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint32_t>(0, cores, 1), lane,
                                  oneapi::tbb::simple_partitioner());
    });
}

void run_block_parallel(LaunchState& launch) {
    if (launch.num_blocks == 1) {
        // No parallel_for for a single block: its task setup would be most of the launch's cost.
        BlockRunner runner(launch);
        runner.run(0);
        return;
    }
    auto body = [&launch](const oneapi::tbb::blocked_range<std::uint32_t>& range) {
        if (launch.failed.load(std::memory_order_relaxed)) return;
        BlockRunner runner(launch);
        for (std::uint32_t index = range.begin(); index != range.end(); ++index) {
            if (launch.failed.load(std::memory_order_relaxed)) return;
            runner.run(index);
        }
    };
    const auto threads = static_cast<std::uint32_t>(oneapi::tbb::this_task_arena::max_concurrency());
    const std::uint32_t core_limit = launch.stream.device().core_limit(engine::CoreKind::vector);
    if (core_limit != 0 && core_limit < std::min(threads, launch.num_blocks)) {
        run_limited(launch, core_limit);
        return;
    }
    const std::uint32_t grain = std::max<std::uint32_t>(1, launch.num_blocks / (4 * threads));
    // Isolated: while this thread waits for the launch's blocks it takes no other task of the arena
    // (another stream's callback or launch), which could delay this launch by its whole duration.
    oneapi::tbb::this_task_arena::isolate([&] {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint32_t>(0, launch.num_blocks, grain), body,
                                  oneapi::tbb::auto_partitioner());
    });
}

// ---- Cooperative launches

void run_cooperative(LaunchState& launch) {
    CooperativeGroup group(launch.num_blocks);
    launch.group = &group;
    std::mutex fault_mutex;
    int fault_code = 0;
    std::string fault_message;

    auto run_one = [&](std::uint32_t index) {
        try {
            BlockRunner runner(launch);
            runner.run(index);
            try {
                group.leave();
            } catch (const KernelFault& fault) {
                fail_block(launch, index, fault.code, fault.message);
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
            // Another block failed first; its fault is the launch's.
        }
    };

    std::vector<std::thread> threads;
    threads.reserve(launch.num_blocks - 1);
    try {
        for (std::uint32_t index = 1; index < launch.num_blocks; ++index) threads.emplace_back(run_one, index);
    } catch (const std::system_error& error) {
        group.abort();
        for (std::thread& thread : threads) thread.join();
        throw engine::OperationError(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
                                     "kernel " + std::string(launch.kernel) + ": cannot start a thread for block " +
                                         std::to_string(threads.size() + 1) + " of its cooperative launch of " +
                                         std::to_string(launch.num_blocks) + " blocks: " + error.what());
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
    bool cooperative;

    void operator()(engine::OpRun& run) {
        engine::Stream& stream = run.stream();
        LaunchState launch{kernel, std::uint32_t{blocks_minus_one} + 1, stream.device().config().ub_bytes + dyn_ubuf_bytes,
                           call, nullptr, stream, run.task_id(), stream.overflow_detection()};
        // Recorded even when a block faults: the flags it raised before the fault are real.
        struct OverflowRecorder {
            LaunchState& launch;
            ~OverflowRecorder() {
                if (launch.overflowed.load(std::memory_order_relaxed)) launch.stream.device().record_overflow();
            }
        } recorder{launch};
        if (cooperative) run_cooperative(launch);
        else run_block_parallel(launch);
    }
};
static_assert(sizeof(LaunchWork) <= 64, "a launch should fit the engine's inline operation storage");

}  // namespace

void enqueue_launch(engine::Stream& stream, const LaunchPlan& plan, KernelCall&& call) {
    stream.enqueue(engine::Operation{
        engine::OpKind::kernel, plan.num_blocks, plan.kernel,
        LaunchWork{std::move(call), plan.kernel, plan.dyn_ubuf_bytes,
                   static_cast<std::uint16_t>(plan.num_blocks - 1), plan.cooperative},
        plan.symbol});
}

}  // namespace canopy::kernel
