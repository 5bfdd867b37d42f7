#pragma once
// A captured stream region compiled into a persistent tbb::flow graph: continue_nodes running the
// tasks, stream order and event record/wait pairs as make_edge edges, built once and replayed as
// often as the program executes it. A run of tasks that follow only each other (one stream's work
// between two cross-stream edges) is one node: TBB would run them one after the other anyway, at
// some 45 ns per node. A graph that is one such run is run by the replay's operation itself. A replay is one operation of the executing stream: its work defers
// the operation's completion, try_puts the graph's source, and the graph's sink completes it, so
// no thread blocks while the graph runs.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/task_arena.h>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class CapturedGraph;
class Device;
class Event;
class WaitList;

// One execution of a graph and of the branches its conditional tasks run within it: the executing
// stream's operation (every node runs as part of it) and the first failure of a node.
class Replay {
public:
    Replay(OpRun run, DeferredCompletion completion) : run_(run), completion_(std::move(completion)) {}
    const OpRun& run() const { return run_; }
    // The first failure stops the replay: nodes not started yet skip their work.
    void fail(int code, const std::string& message);
    bool failed() const { return failed_.load(std::memory_order_acquire); }

private:
    friend class CapturedGraph;
    OpRun run_;
    DeferredCompletion completion_;
    std::atomic<bool> failed_{false};
    std::mutex mutex_;
    int code_ = 0;
    std::string message_;
    std::vector<std::pair<std::shared_ptr<Event>, std::uint64_t>> records_;  // claimed by enqueue
};

// Lets an asynchronous task's successors go on; call it exactly once.
class GraphResume {
public:
    GraphResume(CapturedGraph& graph, std::size_t task) : graph_(&graph), task_(task) {}
    void operator()() const;

private:
    CapturedGraph* graph_;
    std::size_t task_;
};

struct GraphTask {
    // Synchronous work, run with the executing stream's OpRun. Must not defer its completion,
    // unless `deferring` says so.
    Operation operation;
    // The operation may defer its completion (a blocking callback, a notify or value wait): it
    // runs as an asynchronous task, and its deferred completion releases its successors.
    bool deferring = false;
    // A wait for an event recorded outside the graph. Each replay binds it when it is enqueued, as
    // aclrtStreamWaitEvent binds a wait when it is called: to the event's most recent record, or to
    // nothing (the wait passes) when the event was never recorded, was reset, or its record has
    // run. `wait_timeout_ms` > 0 fails the replay with ACL_ERROR_RT_WAIT_TIMEOUT past it.
    std::shared_ptr<Event> wait_event;
    std::int64_t wait_timeout_ms = 0;
    // The stream the task was captured on (the trace draws the replayed tasks on its track).
    int stream_id = -1;
    // Asynchronous work instead (a wait for an event recorded outside the graph, a conditional
    // task running a branch): it starts something and returns; `resume` releases the successors.
    std::function<void(Replay&, GraphResume)> start;
    std::vector<std::size_t> after;  // tasks it depends on, all of lower index
    // Its operation may be replaced between replays (update()).
    bool updatable = false;
};

class CapturedGraph {
public:
    // `records`: events the graph records for waiters outside it (ACL_EVENT_RECORD_EXTERNAL):
    // each execution counts as their most recent record from its enqueue until it has finished.
    // `presets`: values stored before each replay (a conditional handle's default value).
    CapturedGraph(Device& device, std::vector<GraphTask> tasks, std::vector<std::shared_ptr<Event>> records,
                  std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets);
    // The graph must be idle (wait_idle); waits for its last tasks to leave TBB.
    ~CapturedGraph();
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;

    // Enqueues one replay on `stream`. Replays of one graph are serialized: one that becomes ready
    // while another runs starts when that one ends, in the order they became ready.
    void enqueue(Stream& stream);
    // Runs the graph as a branch of `replay` (a conditional task of another graph); `done` is
    // called once its last node has run. The caller serializes branch runs.
    void run_within(Replay& replay, std::function<void()> done);
    // Blocks until no replay of the graph is queued on a stream or running.
    void wait_idle();
    // Replays enqueued and not yet finished.
    std::size_t pending() const { return pending_.load(std::memory_order_acquire); }

    std::size_t size() const { return tasks_.size(); }
    OpKind kind(std::size_t task) const;
    // Replaces an updatable task's operation; a replay running now uses the old or the new one.
    void update(std::size_t task, Operation operation);

private:
    friend class GraphResume;
    struct Execution;
    using Node = oneapi::tbb::flow::continue_node<oneapi::tbb::flow::continue_msg>;

    struct ResumeSink;
    bool asynchronous(std::size_t task) const;
    void run_task(std::size_t task);
    void run_deferring(std::size_t task, Operation& operation, Replay& replay, GraphResume resume);
    void start_wait(std::size_t task, Replay& replay, GraphResume resume);
    void run_segment(std::size_t segment);
    Node& out(std::size_t segment);
    // `bound`: the external waits' records, bound at the enqueue (nullptr: bound now).
    void start(Replay& replay, std::function<void()> done, const std::vector<std::uint64_t>* bound);
    std::vector<std::uint64_t> bind_waits() const;
    // Reports a task the replay ran to the observer the replay's operation started with.
    void report(std::size_t task, const Replay& replay, std::int64_t begin, std::int64_t end);
    void finish();
    void begin_execution(std::unique_ptr<Execution> execution);
    void end_execution();
    void release_pending();

    Device& device_;
    std::vector<GraphTask> tasks_;
    std::mutex update_mutex_;
    std::vector<std::shared_ptr<Operation>> updated_;  // per task: the replacement, if any
    const std::vector<std::shared_ptr<Event>> records_;
    const std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets_;
    std::vector<std::size_t> wait_tasks_;           // the tasks with a wait_event, in order
    std::vector<std::size_t> wait_slot_;            // per task: its index in wait_tasks_
    std::vector<std::uint64_t> bound_;              // per wait: the record the running replay waits for
    std::shared_ptr<WaitList> waits_;               // where those waits park (a device reset fails them)

    std::unique_ptr<oneapi::tbb::flow::graph> graph_;
    std::unique_ptr<oneapi::tbb::task_arena> arena_;  // the device's, attached: outlives a reset device
    std::vector<std::vector<std::size_t>> segments_;  // tasks one node runs in order
    std::deque<Node> nodes_;    // per segment its node, then the gates, the source and the sink
    std::vector<Node*> gates_;  // per asynchronous task: the node that releases its successors
    Node* source_ = nullptr;
    Node* sink_ = nullptr;

    // The replay running now (set before the source is put, read by the nodes).
    Replay* replay_ = nullptr;
    std::function<void()> done_;

    std::mutex mutex_;  // guards the queue, running_ and the wake-ups below
    bool running_ = false;
    std::unique_ptr<Execution> current_;
    std::deque<std::unique_ptr<Execution>> queue_;
    std::atomic<std::size_t> pending_{0};
    std::condition_variable idle_;
};

}  // namespace canopy::engine
