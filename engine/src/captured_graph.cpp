#include "canopy/engine/captured_graph.h"

#include <oneapi/tbb/task_arena.h>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/event.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"
#include "op_node.h"

namespace canopy::engine {

namespace flow = oneapi::tbb::flow;

void Replay::fail(int code, const std::string& message) {
    std::lock_guard lock(mutex_);
    if (code_ == 0) {
        code_ = code;
        message_ = message;
    }
    failed_.store(true, std::memory_order_release);
}

void GraphResume::operator()() const {
    graph_->gates_[task_]->try_put(flow::continue_msg());
    graph_->graph_->release_wait();
}

struct CapturedGraph::Execution {
    Execution(OpRun run, DeferredCompletion completion) : replay(run, std::move(completion)) {}
    Replay replay;
};

CapturedGraph::CapturedGraph(Device& device, std::vector<GraphTask> tasks, std::vector<std::shared_ptr<Event>> records,
                             std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets)
    : device_(device),
      tasks_(std::move(tasks)),
      updated_(tasks_.size()),
      records_(std::move(records)),
      presets_(std::move(presets)) {
    // A graph runs its tasks in the arena it was created in: the device's.
    device.arena().execute([this] {
        graph_ = std::make_unique<flow::graph>();
        arena_ = std::make_unique<oneapi::tbb::task_arena>(oneapi::tbb::task_arena::attach());
    });
    flow::graph& graph = *graph_;
    const std::size_t count = tasks_.size();
    for (std::size_t i = 0; i < count; ++i) nodes_.emplace_back(graph, [this, i](const flow::continue_msg&) { run_task(i); });
    gates_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (tasks_[i].start) {
            // Put by GraphResume, through no edge: one message releases it.
            nodes_.emplace_back(graph, 1, [](const flow::continue_msg&) {});
            gates_[i] = &nodes_.back();
        } else {
            gates_[i] = &nodes_[i];
        }
    }
    source_ = &nodes_.emplace_back(graph, [](const flow::continue_msg&) {});
    sink_ = &nodes_.emplace_back(graph, [this](const flow::continue_msg&) { finish(); });
    std::vector<bool> followed(count, false);
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t before : tasks_[i].after) {
            flow::make_edge(*gates_[before], nodes_[i]);
            followed[before] = true;
        }
        if (tasks_[i].after.empty()) flow::make_edge(*source_, nodes_[i]);
    }
    for (std::size_t i = 0; i < count; ++i)
        if (!followed[i]) flow::make_edge(*gates_[i], *sink_);
    if (count == 0) flow::make_edge(*source_, *sink_);
}

CapturedGraph::~CapturedGraph() {
    // The sink of the last replay may still be returning. Isolated, this thread waits for the
    // graph's own tasks only, never taking on another stream's work (which might wait for it).
    arena_->execute([this] { oneapi::tbb::this_task_arena::isolate([this] { graph_->wait_for_all(); }); });
}

OpKind CapturedGraph::kind(std::size_t task) const { return tasks_[task].operation.kind; }

void CapturedGraph::update(std::size_t task, Operation operation) {
    auto replacement = std::make_shared<Operation>(std::move(operation));
    std::lock_guard lock(update_mutex_);
    updated_[task] = std::move(replacement);
}

void CapturedGraph::run_task(std::size_t i) {
    Replay& replay = *replay_;
    GraphTask& task = tasks_[i];
    if (task.start) {
        graph_->reserve_wait();  // the graph is busy until the task resumes
        if (replay.failed()) GraphResume(*this, i)();
        else task.start(replay, GraphResume(*this, i));
        return;
    }
    if (replay.failed()) return;
    Operation* operation = &task.operation;
    std::shared_ptr<Operation> replacement;
    if (task.updatable) {
        std::lock_guard lock(update_mutex_);
        replacement = updated_[i];
    }
    if (replacement) operation = replacement.get();
    OpRun run = replay.run();
    try {
        Stream& stream = run.stream();
        const StreamWorkScope in_work(stream, stream.device());
        operation->work(run);
    } catch (const OperationError& error) {
        replay.fail(error.code(), error.what());
    } catch (const std::exception& error) {
        replay.fail(ACL_ERROR_RT_INTERNAL_ERROR, std::string(to_string(operation->kind)) + " threw: " + error.what());
    }
}

void CapturedGraph::start(Replay& replay, std::function<void()> done) {
    for (const auto& [where, value] : presets_) *where = value;
    replay_ = &replay;
    done_ = std::move(done);
    source_->try_put(flow::continue_msg());
}

void CapturedGraph::run_within(Replay& replay, std::function<void()> done) { start(replay, std::move(done)); }

void CapturedGraph::finish() {
    // `done` may run this graph again (a while loop's body): it is moved out first.
    std::function<void()> done = std::move(done_);
    done();
}

void CapturedGraph::enqueue(Stream& stream) {
    using Records = std::vector<std::pair<std::shared_ptr<Event>, std::uint64_t>>;
    // Held by the replay's operation from its enqueue: the replay counts as pending, and the
    // records it claimed complete even when the stream drops the operation unrun (an abort).
    struct Token {
        CapturedGraph* graph;
        std::unique_ptr<Records> records;
        explicit Token(CapturedGraph* graph) : graph(graph) {}
        Token(Token&& other) noexcept : graph(std::exchange(other.graph, nullptr)), records(std::move(other.records)) {}
        Token& operator=(Token&&) = delete;
        ~Token() {
            if (!graph) return;
            if (records)
                for (auto& [event, sequence] : *records) event->finish_record(sequence);
            graph->release_pending();
        }
    };
    pending_.fetch_add(1, std::memory_order_acq_rel);
    Token token(this);
    Records* claimed = nullptr;
    if (!records_.empty()) {
        token.records = std::make_unique<Records>();
        claimed = token.records.get();
    }
    OpNode* node = stream.prepare(Operation{OpKind::kernel, tasks_.size(), "model", [token = std::move(token)](OpRun& run) mutable {
        DeferredCompletion completion = run.defer();
        auto execution = std::make_unique<Execution>(run, std::move(completion));
        if (token.records) execution->replay.records_ = std::move(*token.records);
        token.records.reset();
        token.graph->begin_execution(std::move(execution));
    }});
    // Waiters outside the graph that come after this call depend on the replay's operation.
    if (claimed)
        for (const std::shared_ptr<Event>& event : records_) claimed->emplace_back(event, event->claim_record(stream, node));
    stream.submit(node);
}

void CapturedGraph::begin_execution(std::unique_ptr<Execution> execution) {
    {
        std::lock_guard lock(mutex_);
        if (running_) {
            queue_.push_back(std::move(execution));
            return;
        }
        running_ = true;
        current_ = std::move(execution);
    }
    start(current_->replay, [this] { end_execution(); });
}

void CapturedGraph::end_execution() {
    std::unique_ptr<Execution> finished;
    {
        std::lock_guard lock(mutex_);
        finished = std::move(current_);
    }
    Replay& replay = finished->replay;
    for (auto& [event, sequence] : replay.records_) event->finish_record(sequence);
    replay.records_.clear();
    if (replay.code_ != 0) replay.completion_.fail(replay.code_, replay.message_);
    else replay.completion_.complete();
    finished.reset();
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty()) {
            running_ = false;
            return;
        }
        current_ = std::move(queue_.front());
        queue_.pop_front();
    }
    start(current_->replay, [this] { end_execution(); });
}

void CapturedGraph::release_pending() {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    std::lock_guard lock(mutex_);
    idle_.notify_all();
}

void CapturedGraph::wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
}

}  // namespace canopy::engine
