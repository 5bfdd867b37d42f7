#include "canopy/engine/captured_graph.h"

#include <oneapi/tbb/task_arena.h>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/event.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"
#include "canopy/engine/wait_list.h"
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
    std::vector<std::uint64_t> bound;  // the external waits' records, bound at the enqueue
};

// Where the deferred completion of an asynchronous task's operation goes: the task's resumption.
// Reports the task to the trace, from its start to its completion.
struct CapturedGraph::ResumeSink final : CompletionSink {
    ResumeSink(CapturedGraph& graph, std::size_t task, Replay& replay, GraphResume resume)
        : graph(graph), task(task), replay(replay), resume(resume), observer(replay.run().observer()) {
        if (observer) begin = now_ns();
    }
    void complete() override { finish(); }
    void fail(int code, const std::string& message) override {
        replay.fail(code, message);
        finish();
    }
    void finish() {
        if (observer) graph.report(task, replay, begin, now_ns());
        const GraphResume then = resume;
        delete this;
        then();
    }

    CapturedGraph& graph;
    const std::size_t task;
    Replay& replay;
    const GraphResume resume;
    Observer* const observer;
    std::int64_t begin = 0;
};

CapturedGraph::CapturedGraph(Device& device, std::vector<GraphTask> tasks, std::vector<std::shared_ptr<Event>> records,
                             std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets)
    : device_(device),
      tasks_(std::move(tasks)),
      updated_(tasks_.size()),
      records_(std::move(records)),
      presets_(std::move(presets)),
      wait_slot_(tasks_.size(), 0) {
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
        if (!tasks_[i].wait_event) continue;
        wait_slot_[i] = wait_tasks_.size();
        wait_tasks_.push_back(i);
    }
    if (!wait_tasks_.empty()) waits_ = std::make_shared<WaitList>();
    // A graph runs its tasks in the arena it was created in: the device's.
    device.arena().execute([this] {
        graph_ = std::make_unique<flow::graph>();
        arena_ = std::make_unique<oneapi::tbb::task_arena>(oneapi::tbb::task_arena::attach());
    });
    flow::graph& graph = *graph_;
    const std::size_t count = tasks_.size();
    std::vector<std::size_t> successors(count, 0);
    for (const GraphTask& task : tasks_)
        for (std::size_t before : task.after) ++successors[before];
    // A synchronous task whose one predecessor is synchronous and has no other successor continues
    // that predecessor's segment (the predecessor is then the segment's last task).
    std::vector<std::size_t> segment_of(count);
    for (std::size_t i = 0; i < count; ++i) {
        const GraphTask& task = tasks_[i];
        if (!asynchronous(i) && task.after.size() == 1 && !asynchronous(task.after[0]) && successors[task.after[0]] == 1) {
            segment_of[i] = segment_of[task.after[0]];
            segments_[segment_of[i]].push_back(i);
        } else {
            segment_of[i] = segments_.size();
            segments_.push_back({i});
        }
    }
    for (std::size_t s = 0; s < segments_.size(); ++s)
        nodes_.emplace_back(graph, [this, s](const flow::continue_msg&) { run_segment(s); });
    gates_.resize(count, nullptr);
    for (std::size_t i = 0; i < count; ++i) {
        // Put by GraphResume, through no edge: one message releases it.
        if (asynchronous(i)) gates_[i] = &nodes_.emplace_back(graph, 1, [](const flow::continue_msg&) {});
    }
    source_ = &nodes_.emplace_back(graph, [](const flow::continue_msg&) {});
    sink_ = &nodes_.emplace_back(graph, [this](const flow::continue_msg&) { finish(); });
    for (std::size_t s = 0; s < segments_.size(); ++s) {
        const GraphTask& first = tasks_[segments_[s].front()];
        for (std::size_t before : first.after) flow::make_edge(out(segment_of[before]), nodes_[s]);
        if (first.after.empty()) flow::make_edge(*source_, nodes_[s]);
        if (successors[segments_[s].back()] == 0) flow::make_edge(out(s), *sink_);
    }
    if (count == 0) flow::make_edge(*source_, *sink_);
}

CapturedGraph::Node& CapturedGraph::out(std::size_t segment) {
    const std::size_t last = segments_[segment].back();
    return asynchronous(last) ? *gates_[last] : nodes_[segment];
}

bool CapturedGraph::asynchronous(std::size_t task) const {
    const GraphTask& t = tasks_[task];
    return t.start || t.deferring || t.wait_event;
}

void CapturedGraph::run_segment(std::size_t segment) {
    for (std::size_t task : segments_[segment]) run_task(task);
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
    Operation* operation = &task.operation;
    std::shared_ptr<Operation> replacement;
    if (task.updatable) {
        std::lock_guard lock(update_mutex_);
        replacement = updated_[i];
    }
    if (replacement) operation = replacement.get();
    if (asynchronous(i)) {
        graph_->reserve_wait();  // the graph is busy until the task resumes
        const GraphResume resume(*this, i);
        if (replay.failed()) resume();
        else if (task.start) task.start(replay, resume);
        else if (task.wait_event) start_wait(i, replay, resume);
        else run_deferring(i, *operation, replay, resume);
        return;
    }
    if (replay.failed()) return;
    OpRun run = replay.run();
    Observer* observer = run.observer();
    const std::int64_t begin = observer ? now_ns() : 0;
    try {
        Stream& stream = run.stream();
        const StreamWorkScope in_work(stream, stream.device());
        operation->work(run);
    } catch (const OperationError& error) {
        replay.fail(error.code(), error.what());
    } catch (const std::exception& error) {
        replay.fail(ACL_ERROR_RT_INTERNAL_ERROR, std::string(to_string(operation->kind)) + " threw: " + error.what());
    }
    if (observer) report(i, replay, begin, now_ns());
}

void CapturedGraph::run_deferring(std::size_t i, Operation& operation, Replay& replay, GraphResume resume) {
    auto* sink = new ResumeSink(*this, i, replay, resume);
    OpRun run(replay.run(), sink);
    try {
        Stream& stream = run.stream();
        const StreamWorkScope in_work(stream, stream.device());
        operation.work(run);
    } catch (const OperationError& error) {
        // Once deferred, the completion belongs to whoever holds it.
        if (!run.deferred()) sink->fail(error.code(), error.what());
        return;
    } catch (const std::exception& error) {
        if (!run.deferred())
            sink->fail(ACL_ERROR_RT_INTERNAL_ERROR, std::string(to_string(operation.kind)) + " threw: " + error.what());
        return;
    }
    if (!run.deferred()) sink->complete();
}

void CapturedGraph::start_wait(std::size_t i, Replay& replay, GraphResume resume) {
    const std::shared_ptr<Event>& event = tasks_[i].wait_event;
    const std::uint64_t sequence = bound_[wait_slot_[i]];
    if (sequence == 0 || event->finished(sequence)) {
        resume();
        return;
    }
    // Parked on the graph's wait list, like a notify wait: the record releases it, a device reset
    // or the timeout fails it.
    const std::weak_ptr<WaitList> list = waits_;
    event->when_finished(sequence, [list] {
        if (std::shared_ptr<WaitList> alive = list.lock()) alive->signal_now([] {});
    });
    const std::int64_t timeout_ms = tasks_[i].wait_timeout_ms;
    Operation wait = waits_->wait_operation(
        [event, sequence] { return event->finished(sequence); },
        WaitList::Timeout{timeout_ms, ACL_ERROR_RT_WAIT_TIMEOUT,
                          "a replayed wait for an event recorded outside its graph timed out after " +
                              std::to_string(timeout_ms / 1000) + " s"});
    run_deferring(i, wait, replay, resume);
}

void CapturedGraph::report(std::size_t i, const Replay& replay, std::int64_t begin, std::int64_t end) {
    Observer* observer = replay.run().observer();
    const GraphTask& task = tasks_[i];
    Stream& stream = replay.run().stream();
    OpRecord record{task.operation.kind, &stream, task.operation.bytes, task.operation.name, begin, end};
    record.device_id = stream.device().id();
    record.stream_id = stream.id();
    record.task = replay.run().task_id();
    record.flow = task.operation.flow;
    record.graph_task = static_cast<std::int64_t>(i);
    record.captured_stream_id = task.stream_id;
    observer->on_operation(record);
}

std::vector<std::uint64_t> CapturedGraph::bind_waits() const {
    std::vector<std::uint64_t> bound;
    bound.reserve(wait_tasks_.size());
    for (std::size_t task : wait_tasks_) bound.push_back(tasks_[task].wait_event->pending_record());
    return bound;
}

void CapturedGraph::start(Replay& replay, std::function<void()> done, const std::vector<std::uint64_t>* bound) {
    for (const auto& [where, value] : presets_) *where = value;
    if (bound) bound_ = *bound;
    else bound_ = bind_waits();
    replay_ = &replay;
    done_ = std::move(done);
    source_->try_put(flow::continue_msg());
}

void CapturedGraph::run_within(Replay& replay, std::function<void()> done) { start(replay, std::move(done), nullptr); }

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
        std::vector<std::uint64_t> bound;
        explicit Token(CapturedGraph* graph) : graph(graph) {}
        Token(Token&& other) noexcept
            : graph(std::exchange(other.graph, nullptr)), records(std::move(other.records)), bound(std::move(other.bound)) {}
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
    // Bound now, as an eager wait is bound when it is enqueued.
    token.bound = bind_waits();
    Records* claimed = nullptr;
    if (!records_.empty()) {
        token.records = std::make_unique<Records>();
        claimed = token.records.get();
    }
    OpNode* node = stream.prepare(Operation{OpKind::kernel, tasks_.size(), "model", [token = std::move(token)](OpRun& run) mutable {
        DeferredCompletion completion = run.defer();
        auto execution = std::make_unique<Execution>(run, std::move(completion));
        if (token.records) execution->replay.records_ = std::move(*token.records);
        execution->bound = std::move(token.bound);
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
    if (segments_.size() == 1 && !asynchronous(0)) {
        // One stream's work and nothing else: TBB would run its one node right after the source,
        // so the replay's operation runs it, with no task to spawn or worker to wake.
        for (const auto& [where, value] : presets_) *where = value;
        replay_ = &current_->replay;
        run_segment(0);
        end_execution();
        return;
    }
    start(current_->replay, [this] { end_execution(); }, &current_->bound);
}

void CapturedGraph::end_execution() {
    std::unique_ptr<Execution> finished;
    bool next;
    {
        std::lock_guard lock(mutex_);
        finished = std::move(current_);
        next = !queue_.empty();
        if (next) {
            current_ = std::move(queue_.front());
            queue_.pop_front();
        } else {
            running_ = false;
        }
    }
    Replay& replay = finished->replay;
    for (auto& [event, sequence] : replay.records_) event->finish_record(sequence);
    replay.records_.clear();
    // Completing the operation may let aclmdlRIDestroy free this graph (its last pending replay
    // ends): nothing of it is touched afterwards, unless a queued replay, still pending, follows.
    if (replay.code_ != 0) replay.completion_.fail(replay.code_, replay.message_);
    else replay.completion_.complete();
    finished.reset();
    if (next) start(current_->replay, [this] { end_execution(); }, &current_->bound);
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
