#pragma once
// An operation node: a tbb::flow::continue_node of the device graph plus the bookkeeping that lets
// edges be added while the graph runs. Nodes are pooled per device and recycled, so a stream that
// runs millions of operations allocates nothing once warm.
//
// Edges are counted here rather than with make_edge: an edge to a predecessor that has already
// finished must not be counted (flow-graph edges added after the predecessor fired never deliver),
// and "is it finished? else add the edge" has to be one decision under the predecessor's lock.
// When the last dependency is released the node is try_put, and TBB runs it as a task of the
// device arena, ordered among ready nodes by its priority.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/spin_mutex.h>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class OpPool;
class Stream;

class OpNode {
public:
    // level is the stream priority, 0 (greatest) to 7 (least); a prioritized node carries it to TBB,
    // which then runs it through the graph's priority queue (costlier, so only used when the
    // device has streams of different priorities).
    OpNode(OpPool& pool, oneapi::tbb::flow::graph& graph, int level, bool prioritized);
    OpNode(const OpNode&) = delete;
    OpNode& operator=(const OpNode&) = delete;

    // Arms a pooled node with two pending dependencies: the submitter's guard and the node's
    // predecessor in its stream (dropped by release_submission if there is none).
    void prepare(Stream& stream, Operation&& operation);
    // The submitter is done: releases its guard and, unless the node was linked after a
    // predecessor still running, the predecessor's dependency too.
    void release_submission(bool linked);

    // Read by the thread that prepared the node, before it is submitted.
    std::uint32_t generation() const { return generation_; }
    // Registers `successor` to be released when this node finishes. False when this node has
    // already finished or has been recycled since `generation` was read. May throw bad_alloc.
    bool add_successor(OpNode* successor, std::uint32_t generation);
    // Returns a prepared node that will not be submitted (its enqueue failed) to the pool.
    void discard();

    void add_dependency() { pending_.fetch_add(1, std::memory_order_relaxed); }
    // Drops a dependency that turned out not to be needed; the guard keeps the count above zero.
    void drop_dependency() { pending_.fetch_sub(1, std::memory_order_relaxed); }

    // Makes `next` the node's successor in its stream; false if this node has already finished.
    // Never allocates.
    // A node is recycled once its finish() is over and it is no longer its stream's tail:
    // whichever of the two comes second recycles it.
    bool chain(OpNode* next);
    // The stream is being destroyed: its tail is no longer needed as one.
    void release_tail();

    // A synchronizing thread runs a ready node of its own stream itself, if no worker has taken
    // it yet: true if this thread claimed it (then it must run it with run_claimed).
    bool claim(const Stream& stream);
    // Whether the work spreads over threads (copies, memsets, kernels); read after a claim.
    bool splits_work() const {
        return operation_.kind == OpKind::memcpy || operation_.kind == OpKind::memset ||
               operation_.kind == OpKind::kernel;
    }
    // Runs a claimed node and the successors it makes ready in its stream, while `keep_going`.
    template <class KeepGoing>
    void run_claimed(KeepGoing keep_going);

    // Called once the work (or a deferred completion) is done. Returns a successor made ready that
    // the caller should run next itself (only if may_continue), else nullptr.
    OpNode* finish(bool may_continue);
    void fail(int code, const std::string& message);
    // A deferred completion keeps the device alive until it finishes the node.
    void hold_device();

    Stream& stream() const { return *stream_; }
    std::uint64_t task_id() const { return task_; }
    void set_task_id(std::uint64_t task) { task_ = task; }
    // Which event record a prepared wait node waits for (Operation::flow), set under the event's lock.
    void set_flow(std::uint64_t flow) { operation_.flow = flow; }

private:
    // True when it released the last dependency. The node is then ready: event nodes, whose work
    // is a few stores, run at once on the releasing thread (start); all others become TBB tasks.
    bool release(std::int32_t count = 1);
    void run_task();
    OpNode* run(bool may_continue);
    void start();
    // Makes the node ready for reuse (under mutex_); returns true for use in conditions.
    bool reset_locked();

    OpPool& pool_;
    const int level_;
    const bool prioritized_;
    bool runs_inline_ = false;
    oneapi::tbb::flow::continue_node<oneapi::tbb::flow::continue_msg> node_;
    Stream* stream_ = nullptr;
    std::uint64_t task_ = 0;
    Operation operation_{OpKind::host_func, 0, nullptr, {}};
    bool holds_device_ = false;

    // What the submitting thread and the finishing worker both touch shares one cache line.
    alignas(64) std::atomic<std::int32_t> pending_{0};
    // The stream of a ready node nobody runs yet. The TBB task and a synchronizing thread of that
    // stream race to take it; stale tasks of a recycled node find nothing to take.
    std::atomic<const Stream*> armed_{nullptr};
    oneapi::tbb::spin_mutex mutex_;  // guards the flags below, successors_ and generation changes
    bool finished_ = false;  // no successor may be added any more
    bool retired_ = false;   // finish() no longer touches the node
    bool chained_ = false;   // its stream has linked a next node after it
    bool detached_ = false;  // its stream found it finished, or was destroyed, and let go of it
    std::uint32_t generation_ = 0;
    // The stream's next node is kept apart from the event waits so that linking it, which
    // happens after the node is published as its stream's tail, cannot fail for want of memory.
    OpNode* next_in_stream_ = nullptr;
    std::vector<OpNode*> successors_;
    OpNode* next_inline_ = nullptr;  // the thread's backlog of inline nodes to run (see start)
};

template <class KeepGoing>
void OpNode::run_claimed(KeepGoing keep_going) {
    OpNode* next = run(true);
    while (next && keep_going()) next = next->run(true);
    if (next) next->start();
}

// Free nodes are kept per thread and moved to and from a shared list in batches: the thread that
// submits acquires nodes and the workers that finish them release them, and a shared list alone
// would make both contend for one lock and one cache line on every operation.
class OpPool {
public:
    explicit OpPool(oneapi::tbb::flow::graph& graph);
    // Nodes are destroyed with the pool, after the graph has gone idle.
    ~OpPool();

    OpNode* acquire(int level, bool prioritized);
    void release(OpNode* node, int level, bool prioritized);
    std::size_t size();
    oneapi::tbb::flow::graph& graph() { return graph_; }

private:
    static constexpr int levels = 8;
    static constexpr std::size_t batch = 32;
    using FreeNodes = std::vector<OpNode*>;
    // Releasing a node never allocates: it runs where a finished node cannot report a failure
    // (a worker, or a thread synchronizing or destroying a stream). Local lists keep room for
    // their largest size, and the shared list for every node of its kind ever built.
    struct Shared {
        oneapi::tbb::spin_mutex mutex;
        FreeNodes nodes;
        std::size_t built = 0;
    };
    struct Local {
        Local() noexcept;
        FreeNodes nodes[2][levels];  // [prioritized][level]
    };

    Local& local();

    oneapi::tbb::flow::graph& graph_;
    const std::uint64_t id_;  // never reused: lets a thread cache its Local without a lookup
    Shared shared_[2][levels];
    oneapi::tbb::enumerable_thread_specific<Local> local_;
    oneapi::tbb::spin_mutex all_mutex_;
    std::vector<std::unique_ptr<OpNode>> all_;
};

}  // namespace canopy::engine
