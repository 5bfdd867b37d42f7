#include "op_node.h"

#include <exception>
#include <mutex>
#include <new>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

namespace flow = oneapi::tbb::flow;

namespace {
// TBB runs nodes of higher node_priority first; stream priority 0 is the greatest.
flow::node_priority_t node_priority(int level, bool prioritized) {
    return prioritized ? static_cast<flow::node_priority_t>(8 - level) : flow::no_priority;
}

bool runs_inline(OpKind kind) {
    return kind == OpKind::event_record || kind == OpKind::event_wait || kind == OpKind::event_reset;
}

// Nodes that run inline and make further inline nodes ready are queued here rather than run
// recursively, so that a long ping-pong of event nodes does not grow the stack. The queue is linked
// through the nodes: making a node ready must not allocate.
struct InlineBacklog {
    bool draining = false;
    OpNode* head = nullptr;
};
__attribute__((tls_model("initial-exec"))) thread_local InlineBacklog inline_backlog;
}  // namespace

OpNode::OpNode(OpPool& pool, flow::graph& graph, int level, bool prioritized)
    : pool_(pool),
      level_(level),
      prioritized_(prioritized),
      node_(graph, [this](const flow::continue_msg&) { run_task(); }, node_priority(level, prioritized)) {}

void OpNode::run_task() {
    if (!armed_.exchange(nullptr, std::memory_order_acq_rel)) return;  // a synchronizing thread took it
    // Like a flow-graph bypass: a successor that this node makes ready runs next in the same task,
    // so a stream's chain runs back to back without a spawn per node. The budget keeps one
    // stream from holding a worker for ever.
    int budget = 256;
    run_claimed([&budget] { return --budget > 0; });
}

bool OpNode::claim(const Stream& stream) {
    const Stream* expected = &stream;
    return armed_.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
}

void OpNode::prepare(Stream& stream, Operation&& operation) {
    stream_ = &stream;
    runs_inline_ = runs_inline(operation.kind);
    operation_ = std::move(operation);
    holds_device_ = false;
    pending_.store(2, std::memory_order_relaxed);
}

void OpNode::release_submission(bool linked) {
    if (release(linked ? 1 : 2)) start();
}

bool OpNode::add_successor(OpNode* successor, std::uint32_t generation) {
    oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
    if (finished_ || generation_ != generation) return false;
    successors_.push_back(successor);
    return true;
}

bool OpNode::release(std::int32_t count) { return pending_.fetch_sub(count, std::memory_order_acq_rel) == count; }

void OpNode::start() {
    if (!runs_inline_) {
        // Offered before it is armed: once armed it may be taken, run and finished at once, and
        // its stream destroyed, so this thread must not touch the stream after arming it.
        stream_->offer(this);
        armed_.store(stream_, std::memory_order_release);
        node_.try_put(flow::continue_msg());
        return;
    }
    if (inline_backlog.draining) {
        next_inline_ = inline_backlog.head;
        inline_backlog.head = this;
        return;
    }
    inline_backlog.draining = true;
    run(false);
    while (OpNode* next = inline_backlog.head) {
        inline_backlog.head = next->next_inline_;
        next->run(false);
    }
    inline_backlog.draining = false;
}

bool OpNode::chain(OpNode* next) {
    bool recycled;
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
        if (!finished_) {
            next_in_stream_ = next;
            chained_ = true;
            return true;
        }
        detached_ = true;
        recycled = retired_ && reset_locked();
    }
    if (recycled) pool_.release(this, level_, prioritized_);
    return false;
}

void OpNode::release_tail() {
    bool recycled;
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
        detached_ = true;
        recycled = retired_ && reset_locked();
    }
    if (recycled) pool_.release(this, level_, prioritized_);
}

void OpNode::discard() {
    operation_.work.reset();
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
        reset_locked();
    }
    pool_.release(this, level_, prioritized_);
}

bool OpNode::reset_locked() {
    finished_ = retired_ = chained_ = detached_ = false;
    next_in_stream_ = nullptr;
    successors_.clear();
    ++generation_;
    return true;
}

OpNode* OpNode::run(bool may_continue) {
    // Pairs with the release of the last dependency: the work sees everything its predecessors
    // and its submitter wrote (also what tells ThreadSanitizer so, since libtbb is not instrumented).
    pending_.load(std::memory_order_acquire);
    Stream& stream = *stream_;
    // A deferred completion may finish and recycle this node as soon as the work has handed it
    // off, so nothing of the node is read after the work returns except through these copies.
    const OpKind kind = operation_.kind;
    const std::uint64_t bytes = operation_.bytes;
    const char* const name = operation_.name;
    // The only cost of observation while nothing observes: this load.
    Observer* observer = current_observer();
    OpRecord record{kind, &stream, bytes, name, 0, 0};
    if (observer) {
        // Read now: a deferred operation's stream may be gone once its work has returned.
        record.device_id = stream.device().id();
        record.stream_id = stream.id();
        record.task = task_;
        record.flow = operation_.flow;
        record.begin_ns = now_ns();
    }
    OpRun run(*this, observer);
    if (!stream.skips_work(kind)) {
        stream.running_task_.store(task_, std::memory_order_relaxed);
        try {
            const StreamWorkScope in_work(stream, stream.device());
            operation_.work(run);
        } catch (const OperationError& error) {
            stream.fail_task(task_, operation_, error.code(), {error.what()});
        } catch (const std::exception& error) {
            stream.fail_task(task_, operation_, ACL_ERROR_RT_INTERNAL_ERROR, {to_string(kind), " threw: ", error.what()});
        } catch (...) {
            stream.fail_task(task_, operation_, ACL_ERROR_RT_INTERNAL_ERROR,
                             {to_string(kind), " threw a non-standard exception"});
        }
        // A deferred operation may already have finished, and its stream be gone.
        if (!run.deferred()) stream.running_task_.store(0, std::memory_order_relaxed);
    }
    if (observer) {
        record.end_ns = now_ns();
        observer->on_operation(record);
    }
    return run.deferred() ? nullptr : finish(may_continue);
}

void OpNode::hold_device() {
    holds_device_ = true;
    stream_->deferred_.fetch_add(1, std::memory_order_acq_rel);
    pool_.graph().reserve_wait();
}

void OpNode::fail(int code, const std::string& message) {
    stream_->record_failure(code, message);
    finish(false);
}

OpNode* OpNode::finish(bool may_continue) {
    operation_.work.reset();
    bool chained;
    OpNode* next;
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
        finished_ = true;
        chained = chained_;
        next = next_in_stream_;
    }
    // successors_ no longer changes once finished_ is set.
    OpNode* continuation = nullptr;
    auto release_successor = [&](OpNode* successor) {
        if (!successor->release()) return;
        if (may_continue && !continuation && !successor->runs_inline_ && !successor->prioritized_) {
            continuation = successor;
        } else {
            successor->start();
        }
    };
    if (next) release_successor(next);
    for (OpNode* successor : successors_) release_successor(successor);
    const bool held = holds_device_;
    if (held) stream_->deferred_.fetch_sub(1, std::memory_order_acq_rel);
    stream_->on_finished();  // the stream may be destroyed from here on
    bool recycled;
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(mutex_);
        retired_ = true;
        // Linked already, or let go of by its stream: nobody else will recycle it. Otherwise the
        // stream's next submit (or its destruction) does.
        recycled = (chained || detached_) && reset_locked();
    }
    if (recycled) pool_.release(this, level_, prioritized_);
    if (held) pool_.graph().release_wait();
    return continuation;
}

namespace {
std::atomic<std::uint64_t> pool_ids{0};

// The calling thread's Local of the pool it used last. Pools are told apart by id, not address,
// so the entry of a destroyed pool is never taken for a new one.
struct LastLocal {
    std::uint64_t pool = 0;
    void* local = nullptr;
};
// Initial-exec TLS, read on every operation (see kernels/src/block.cpp).
__attribute__((tls_model("initial-exec"))) thread_local LastLocal last_local;
}  // namespace

OpPool::Local::Local() noexcept {
    try {
        for (auto& by_level : nodes) {
            for (FreeNodes& free : by_level) free.reserve(2 * batch);
        }
    } catch (const std::bad_alloc&) {
        // Lists left without room send released nodes to the shared list (see release).
    }
}

OpPool::OpPool(flow::graph& graph) : graph_(graph), id_(++pool_ids) {}

OpPool::~OpPool() = default;

OpPool::Local& OpPool::local() {
    if (last_local.pool != id_) last_local = LastLocal{id_, &local_.local()};
    return *static_cast<Local*>(last_local.local);
}

OpNode* OpPool::acquire(int level, bool prioritized) {
    FreeNodes& local = this->local().nodes[prioritized][level];
    if (local.empty()) {
        Shared& shared = shared_[prioritized][level];
        oneapi::tbb::spin_mutex::scoped_lock lock(shared.mutex);
        const std::size_t take = std::min(batch, shared.nodes.size());
        local.insert(local.end(), shared.nodes.end() - static_cast<std::ptrdiff_t>(take), shared.nodes.end());
        shared.nodes.resize(shared.nodes.size() - take);
    }
    if (!local.empty()) {
        OpNode* node = local.back();
        local.pop_back();
        return node;
    }
    auto node = std::make_unique<OpNode>(*this, graph_, level, prioritized);
    {
        Shared& shared = shared_[prioritized][level];
        oneapi::tbb::spin_mutex::scoped_lock lock(shared.mutex);
        if (shared.nodes.capacity() <= shared.built) shared.nodes.reserve(std::max(2 * shared.nodes.capacity(), 2 * batch));
        ++shared.built;
    }
    OpNode* raw = node.get();
    oneapi::tbb::spin_mutex::scoped_lock lock(all_mutex_);
    all_.push_back(std::move(node));
    return raw;
}

std::size_t OpPool::size() {
    oneapi::tbb::spin_mutex::scoped_lock lock(all_mutex_);
    return all_.size();
}

void OpPool::release(OpNode* node, int level, bool prioritized) {
    // A thread's first release makes its local lists, which takes memory; without it, or without
    // room in the local list, the node goes to the shared list, whose room is kept for every node.
    FreeNodes* local = nullptr;
    try {
        local = &this->local().nodes[prioritized][level];
    } catch (const std::bad_alloc&) {
    }
    Shared& shared = shared_[prioritized][level];
    if (!local || local->size() == local->capacity()) {
        oneapi::tbb::spin_mutex::scoped_lock lock(shared.mutex);
        shared.nodes.push_back(node);
        return;
    }
    local->push_back(node);
    if (local->size() < 2 * batch) return;
    oneapi::tbb::spin_mutex::scoped_lock lock(shared.mutex);
    shared.nodes.insert(shared.nodes.end(), local->end() - static_cast<std::ptrdiff_t>(batch), local->end());
    local->resize(local->size() - batch);
}

// ---- OpRun / DeferredCompletion

Stream& OpRun::stream() const { return node_.stream(); }

std::uint64_t OpRun::task_id() const { return node_.task_id(); }

DeferredCompletion OpRun::defer() {
    deferred_ = true;
    if (sink_) return DeferredCompletion(sink_);  // the node is held by its own deferral already
    node_.hold_device();
    return DeferredCompletion(&node_);
}

DeferredCompletion& DeferredCompletion::operator=(DeferredCompletion&& other) noexcept {
    if (this != &other) {
        complete();
        node_ = std::exchange(other.node_, nullptr);
        sink_ = std::exchange(other.sink_, nullptr);
    }
    return *this;
}

void DeferredCompletion::complete() {
    if (OpNode* node = std::exchange(node_, nullptr)) node->finish(false);
    else if (CompletionSink* sink = std::exchange(sink_, nullptr)) sink->complete();
}

void DeferredCompletion::fail(int code, const std::string& message) {
    if (OpNode* node = std::exchange(node_, nullptr)) node->fail(code, message);
    else if (CompletionSink* sink = std::exchange(sink_, nullptr)) sink->fail(code, message);
}

}  // namespace canopy::engine
