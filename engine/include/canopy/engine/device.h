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
    std::atomic<std::size_t> memory_used_{0};
    std::atomic<bool> mixed_priorities_{false};
    struct Sleeper {
        const Stream* stream;
        std::uint64_t target;
        bool woken = false;
    };
    std::atomic<int> sleepers_{0};
    std::mutex sleep_mutex_;
    std::condition_variable wake_;
    std::vector<Sleeper*> sleeping_;

    std::mutex streams_mutex_;
    std::unordered_set<Stream*> streams_;
    int streams_per_priority_[8] = {};
    std::unique_ptr<Context> primary_;
};

}  // namespace canopy::engine
