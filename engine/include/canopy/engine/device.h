#pragma once
// A device is an execution domain: its own tbb::task_arena, whose workers run the operation nodes
// of one tbb::flow graph shared by all of the device's streams (so that node priorities order ready
// work across streams).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "canopy/engine/config.h"
#include "canopy/engine/failure.h"

namespace canopy::engine {

class Context;
class OpPool;
class Stream;

// Wakes threads that block (timed synchronizes, event waits) when an operation finishes. Costs a
// relaxed load per finished operation while nobody blocks.
class Notifier {
public:
    void notify();
    // Waits until ready() or the deadline (steady clock ns, or -1 for none); returns ready().
    template <class Ready>
    bool wait_until(Ready ready, std::int64_t deadline_ns);

private:
    bool wait_once(std::unique_lock<std::mutex>& lock, std::int64_t deadline_ns);
    std::atomic<int> sleepers_{0};
    std::mutex mutex_;
    std::condition_variable cv_;
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
    Notifier& notifier() { return notifier_; }

    // The default context created by aclrtSetDevice; it lives as long as the device.
    Context& primary_context() { return *primary_; }

    // A thread synchronizing a stream by helping: it waits in `graph`'s wait_for_all on one
    // reservation, which the operation that brings the stream's finished count to `target`
    // releases.
    struct HelpingWaiter {
        const Stream* stream;
        std::uint64_t target;
        oneapi::tbb::flow::graph* graph;
        bool released = false;
    };
    void add_helping_waiter(HelpingWaiter& waiter);
    void release_helping_waiter(HelpingWaiter& waiter);
    void remove_helping_waiter(HelpingWaiter& waiter);
    // Called by every finished operation: a load while nobody helps.
    void wake_helping_waiters(const Stream* stream, std::uint64_t finished) {
        if (helping_waiters_.load(std::memory_order_seq_cst) != 0) wake_matching(stream, finished);
    }

    // Synchronizes every stream of the device; timeout_ms as Stream::synchronize.
    Failure synchronize(std::int32_t timeout_ms);

    // True while the device has streams of more than one priority: only then do operation nodes
    // go through TBB's priority queue.
    bool mixed_priorities() const { return mixed_priorities_.load(std::memory_order_relaxed); }

    // Device memory accounting against config().device_memory_bytes.
    bool reserve_memory(std::size_t bytes);
    void release_memory(std::size_t bytes);
    std::size_t memory_used() const { return memory_used_.load(std::memory_order_relaxed); }

private:
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
    Notifier notifier_;
    std::atomic<std::size_t> memory_used_{0};
    std::atomic<bool> mixed_priorities_{false};
    std::atomic<int> helping_waiters_{0};
    std::mutex helping_mutex_;
    std::vector<HelpingWaiter*> helping_;

    std::mutex streams_mutex_;
    std::unordered_set<Stream*> streams_;
    int streams_per_priority_[8] = {};
    std::unique_ptr<Context> primary_;
};

template <class Ready>
bool Notifier::wait_until(Ready ready, std::int64_t deadline_ns) {
    if (ready()) return true;
    std::unique_lock lock(mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    bool done = ready();
    while (!done && wait_once(lock, deadline_ns)) done = ready();
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    return done || ready();
}

}  // namespace canopy::engine
