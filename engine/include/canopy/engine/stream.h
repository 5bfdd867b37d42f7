#pragma once
// A stream is an ordered chain of operation nodes in its device's tbb::flow graph. Every operation
// depends on the one enqueued before it on the same stream and, through event waits, on operations
// of other streams; it runs as soon as those have finished.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "canopy/engine/failure.h"
#include "canopy/engine/operation.h"

namespace canopy::engine {

class Context;
class Device;

enum class FailureMode { continue_on_failure = 0, stop_on_failure = 1 };

class Stream {
public:
    static constexpr int greatest_priority = 0;
    static constexpr int least_priority = 7;

    // priority is clamped into [greatest_priority, least_priority].
    Stream(Context& context, int priority, std::uint32_t flags);
    // Waits for the stream's pending work.
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Context& context() const { return context_; }
    Device& device() const;
    int priority() const { return priority_; }
    std::uint32_t flags() const { return flags_; }
    void set_failure_mode(FailureMode mode) { failure_mode_.store(mode, std::memory_order_relaxed); }

    void enqueue(Operation operation);

    // Blocks until every operation enqueued so far has finished. Meanwhile the calling thread runs
    // the stream's own ready operations that no worker has taken yet (it would wait for them
    // anyway), spins briefly, then sleeps. It never runs another stream's work: a host function
    // there may be waiting for this very thread, or outlast the stream being waited for.
    // Returns (and clears) the first failure of an operation since the last synchronize.
    Failure synchronize();
    // timeout_ms -1 waits forever, 0 only checks; on expiry returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
    Failure synchronize(std::int32_t timeout_ms);
    bool idle() const;

    // Operations that have not started yet are skipped (aclrtDestroyStreamForce); then waits.
    void discard_pending();

private:
    friend class Device;
    friend class OpNode;
    friend class Event;

    OpNode* prepare(Operation&& operation);
    void submit(OpNode* node);
    void on_finished();
    void record_failure(int code, const std::string& message);
    bool skips_work(OpKind kind) const;
    Failure take_failure();
    // Offers a ready node to a synchronizing thread of this stream (see OpNode::claim).
    void offer(OpNode* node) { offered_.store(node, std::memory_order_release); }
    // False if the deadline (steady clock ns, -1 for none) passed first.
    bool wait_finished(std::uint64_t target, std::int64_t deadline_ns);

    Context& context_;
    const int priority_;
    const std::uint32_t flags_;
    std::atomic<FailureMode> failure_mode_{FailureMode::continue_on_failure};
    std::atomic<bool> discarding_{false};

    // The submitting threads' and the workers' counters live on separate cache lines.
    alignas(64) std::atomic<OpNode*> tail_{nullptr};
    std::atomic<std::uint64_t> submitted_{0};
    alignas(64) std::atomic<std::uint64_t> finished_{0};
    std::atomic<OpNode*> offered_{nullptr};  // the node most recently made ready

    std::atomic<bool> failed_{false};
    std::mutex failure_mutex_;
    Failure failure_;
};

}  // namespace canopy::engine
