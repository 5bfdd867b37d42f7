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

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/spin_mutex.h>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class OpPool;
class Stream;

class OpNode {
public:
    // level is the stream priority, 0 (greatest) to 7 (least).
    OpNode(OpPool& pool, oneapi::tbb::flow::graph& graph, int level);
    OpNode(const OpNode&) = delete;
    OpNode& operator=(const OpNode&) = delete;

    // Arms a pooled node: one pending dependency (the submitter's guard), two references (its
    // execution and its stream's tail).
    void prepare(Stream& stream, Operation&& operation);

    std::uint32_t generation() const { return generation_.load(std::memory_order_acquire); }
    // Registers `successor` to be released when this node finishes. False when this node has
    // already finished or has been recycled since `generation` was read.
    bool add_successor(OpNode* successor, std::uint32_t generation);

    void add_dependency() { pending_.fetch_add(1, std::memory_order_relaxed); }
    // The release that brings the count to zero makes the node ready.
    void release_dependency();

    void unref();

    // Called once the work (or a deferred completion) is done.
    void finish();
    void fail(int code, const std::string& message);
    // A deferred completion keeps the device alive until it finishes the node.
    void hold_device();

    Stream& stream() const { return *stream_; }

private:
    void run();

    OpPool& pool_;
    const int level_;
    oneapi::tbb::flow::continue_node<oneapi::tbb::flow::continue_msg> node_;
    Stream* stream_ = nullptr;
    Operation operation_{OpKind::host_func, 0, nullptr, {}};
    std::atomic<std::int32_t> pending_{0};
    std::atomic<std::int32_t> references_{0};
    bool holds_device_ = false;

    oneapi::tbb::spin_mutex mutex_;  // guards finished_, successors_ and generation changes
    bool finished_ = false;
    std::atomic<std::uint32_t> generation_{0};
    std::vector<OpNode*> successors_;
};

class OpPool {
public:
    explicit OpPool(oneapi::tbb::flow::graph& graph) : graph_(graph) {}
    // Nodes are destroyed with the pool, after the graph has gone idle.
    ~OpPool();

    OpNode* acquire(int level);
    void release(OpNode* node, int level);
    oneapi::tbb::flow::graph& graph() { return graph_; }

private:
    static constexpr int levels = 8;
    struct FreeList {
        oneapi::tbb::spin_mutex mutex;
        std::vector<OpNode*> nodes;
    };

    oneapi::tbb::flow::graph& graph_;
    FreeList free_[levels];
    oneapi::tbb::spin_mutex all_mutex_;
    std::vector<std::unique_ptr<OpNode>> all_;
};

}  // namespace canopy::engine
