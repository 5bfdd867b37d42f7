#pragma once
// A device is an execution domain: its own tbb::task_arena, whose workers run the operation nodes
// of one tbb::flow graph shared by all of the device's streams (so that node priorities order ready
// work across streams).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "canopy/engine/config.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

class Context;
class OpPool;

// An operation that failed on a device, as the exception callbacks see it.
struct TaskFault {
    int device_id;
    int stream_id;
    std::uint64_t task_id;
    int code;
    std::string message;
    OpKind kind;
    const char* name;    // a kernel's name, or nullptr
    const void* symbol;  // a kernel's function address, or nullptr
};

// Called on the thread that ran the failed operation, after it has been recorded on its stream.
using FaultHandler = void (*)(const TaskFault& fault);
// Installs (nullptr: removes) the process-wide handler.
void set_fault_handler(FaultHandler handler);

// A stream's progress to wait for: its finished count reaching `target`.
struct StreamMark {
    int device_id;
    const Stream* stream;
    std::uint64_t target;
};

class Device {
public:
    Device(int id, const RuntimeConfig& config);
    // Finishes all work, then releases the graph and its nodes.
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    int id() const { return id_; }
    const RuntimeConfig& config() const { return config_; }
    int workers() const { return workers_; }
    oneapi::tbb::task_arena& arena() { return arena_; }
    oneapi::tbb::flow::graph& graph() { return *graph_; }
    OpPool& pool() { return *pool_; }

    // The default context created by aclrtSetDevice; it lives as long as the device.
    Context& primary_context() { return *primary_; }

    // Puts the calling thread to sleep until `finished` (a stream's count) reaches `target` or the
    // deadline (steady clock ns, -1 for none) passes. The operation that brings the count to the
    // target wakes it: finished operations look for sleepers here, on the device, because the
    // stream may be destroyed as soon as its count is reached.
    void sleep_until_finished(const Stream& stream, const std::atomic<std::uint64_t>& finished,
                              std::uint64_t target, std::int64_t deadline_ns);
    // Called by every finished operation: a load while nobody sleeps.
    void wake_stream_waiters(const Stream* stream, std::uint64_t finished) {
        if (sleepers_.load(std::memory_order_seq_cst) != 0) wake_matching(stream, finished);
    }

    // Where each stream with unfinished work is now (for Runtime::release_memory).
    std::vector<StreamMark> busy_streams();
    // Whether the stream has finished `mark.target` operations, or is gone.
    bool reached(const StreamMark& mark);

    // What a synchronous copy or memset waits for when config().sync_copies_wait: every operation
    // enqueued on the device's streams before the call, as behind CUDA's legacy default stream.
    // Returns at once on a thread running stream work (a host function, a callback): it would
    // wait for itself, or for work queued behind it. It stops waiting for a stream parked in a
    // deferred operation once every other stream has reached its mark, since only the program
    // (a notify record, a value write, aclrtProcessReport) can move that stream on. A host
    // function that blocks until the calling thread acts is not recognisable and would hang it.
    void wait_queued_work();
    // Whether a stream of the device is parked in a deferred operation (Stream::parked).
    bool has_parked_stream();
    // Operation nodes the device's pool has made: the peak of operations queued at once, since
    // finished nodes are reused by any stream of the device (each costs sizeof(OpNode) bytes
    // plus what its work holds beyond the inline 64 bytes).
    std::size_t operation_nodes();

    // Synchronizes every stream of the device; timeout_ms as Stream::synchronize.
    Failure synchronize(std::int32_t timeout_ms);

    // True while the device has streams of more than one priority: only then do operation nodes
    // go through TBB's priority queue.
    bool mixed_priorities() const { return mixed_priorities_.load(std::memory_order_relaxed); }

    // Kernel block runners at work now (one per worker running blocks of a launch).
    void enter_kernel() { busy_runners_.fetch_add(1, std::memory_order_relaxed); }
    void leave_kernel() { busy_runners_.fetch_sub(1, std::memory_order_relaxed); }
    // The share of the workers running kernel blocks, in percent (aclrtGetDeviceUtilizationRate).
    int busy_percent() const {
        return std::min(100, busy_runners_.load(std::memory_order_relaxed) * 100 / std::max(workers_, 1));
    }

    int next_stream_id() { return next_stream_id_.fetch_add(1, std::memory_order_relaxed); }

    // aclrtSetDeviceSatMode: the mode that streams created from now on take.
    FloatMode float_mode() const { return float_mode_.load(std::memory_order_relaxed); }
    void set_float_mode(FloatMode mode) { float_mode_.store(mode, std::memory_order_relaxed); }

    // The device's float status: set when a kernel of a stream with overflow detection raised an
    // IEEE overflow, invalid-operation or divide-by-zero flag (aclrtGetOverflowStatus).
    void record_overflow() { overflowed_.store(true, std::memory_order_relaxed); }
    bool overflowed() const { return overflowed_.load(std::memory_order_relaxed); }
    void reset_overflow() { overflowed_.store(false, std::memory_order_relaxed); }

    // aclrtSetDeviceResLimit: at most `cores` blocks of a launch run at once (0: no limit).
    void set_core_limit(CoreKind kind, std::uint32_t cores) {
        core_limits_[static_cast<int>(kind)].store(cores, std::memory_order_relaxed);
    }
    std::uint32_t core_limit(CoreKind kind) const {
        return core_limits_[static_cast<int>(kind)].load(std::memory_order_relaxed);
    }

    // Peer access (aclrtDeviceEnablePeerAccess): whether this device may reach `peer`'s memory.
    void set_peer_access(int peer, bool enabled);
    bool peer_access(int peer) const;

    // The most recent failed operation of the device (aclrtGetErrorVerbose); code 0 if none.
    void record_fault(const TaskFault& fault);
    TaskFault last_fault() const;

    // Device memory accounting against config().device_memory_bytes.
    bool reserve_memory(std::size_t bytes);
    void release_memory(std::size_t bytes);
    std::size_t memory_used() const { return memory_used_.load(std::memory_order_relaxed); }

private:
    // reached() with live_mutex_ already held.
    bool reached_locked(const StreamMark& mark) const;
    friend class Stream;
    void attach(Stream* stream);
    void detach(Stream* stream);
    void update_mixed_priorities();
    void wake_matching(const Stream* stream, std::uint64_t finished);

    const int id_;
    const RuntimeConfig config_;
    const int workers_;
    oneapi::tbb::task_arena arena_;
    std::unique_ptr<oneapi::tbb::flow::graph> graph_;
    std::unique_ptr<OpPool> pool_;
    std::atomic<std::size_t> memory_used_{0};
    std::atomic<int> next_stream_id_{0};
    std::atomic<int> busy_runners_{0};
    std::atomic<FloatMode> float_mode_{FloatMode::inf_nan};
    std::atomic<bool> overflowed_{false};
    std::atomic<std::uint32_t> core_limits_[2] = {};
    mutable std::mutex status_mutex_;
    TaskFault last_fault_{};
    std::unordered_set<int> peers_;  // guarded by status_mutex_
    std::atomic<bool> mixed_priorities_{false};
    // On the sleeping thread's stack, linked under sleep_mutex_: going to sleep allocates nothing,
    // since it happens where a failure cannot be reported (a stream's destructor).
    struct Sleeper {
        const Stream* stream;
        std::uint64_t target;
        Sleeper* next;
        bool woken = false;
    };
    std::atomic<int> sleepers_{0};
    std::mutex sleep_mutex_;
    std::condition_variable wake_;
    Sleeper* sleeping_ = nullptr;

    std::mutex streams_mutex_;
    std::unordered_set<Stream*> streams_;
    // Streams that synchronize() is waiting for, and how many times (guarded by streams_mutex_):
    // detach() waits until its stream is unpinned rather than let it be freed under the wait.
    std::unordered_map<const Stream*, int> pinned_;
    std::condition_variable unpinned_;
    // The same streams under their own lock, taken only for short reads: the work that
    // wait_queued_work() waits for may free memory (busy_streams) meanwhile.
    std::mutex live_mutex_;
    std::unordered_set<Stream*> live_streams_;
    int streams_per_priority_[8] = {};
    std::unique_ptr<Context> primary_;
};

}  // namespace canopy::engine
