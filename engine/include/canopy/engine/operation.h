#pragma once
// What a stream runs: an Operation is a kind (for observers and capture), a size, and its work.
#include <cstdint>
#include <string>

#include "canopy/engine/detail/inplace_function.h"
#include "canopy/engine/observer.h"

namespace canopy::engine {

class OpNode;
class Stream;

// Where a deferred completion goes when the work does not run as a node of its own: a task of a
// captured graph (captured_graph.h) that waits for a signal or a subscriber completes its task,
// not the replay's operation.
class CompletionSink {
public:
    virtual void complete() = 0;
    virtual void fail(int code, const std::string& message) = 0;

protected:
    ~CompletionSink() = default;
};

// Lets work finish after its body has returned (a blocking callback completes when the subscribed
// thread has run it). Exactly one of complete() or fail() takes effect; destroying an unfinished
// DeferredCompletion completes the operation, so a stream can never be left waiting forever.
class DeferredCompletion {
public:
    DeferredCompletion() = default;
    explicit DeferredCompletion(OpNode* node) : node_(node) {}
    explicit DeferredCompletion(CompletionSink* sink) : sink_(sink) {}
    DeferredCompletion(DeferredCompletion&& other) noexcept : node_(other.node_), sink_(other.sink_) {
        other.node_ = nullptr;
        other.sink_ = nullptr;
    }
    DeferredCompletion& operator=(DeferredCompletion&& other) noexcept;
    DeferredCompletion(const DeferredCompletion&) = delete;
    DeferredCompletion& operator=(const DeferredCompletion&) = delete;
    ~DeferredCompletion() { complete(); }

    void complete();
    void fail(int code, const std::string& message);
    // Whether it still has an operation (or a sink) to complete.
    explicit operator bool() const { return node_ != nullptr || sink_ != nullptr; }

private:
    OpNode* node_ = nullptr;
    CompletionSink* sink_ = nullptr;
};

// Handed to the work while it runs.
class OpRun {
public:
    OpRun(OpNode& node, Observer* observer) : node_(node), observer_(observer) {}
    // The same operation's run, for work whose deferred completion goes to `sink` instead.
    OpRun(const OpRun& base, CompletionSink* sink) : node_(base.node_), observer_(base.observer_), sink_(sink) {}
    Stream& stream() const;
    // The operation's task id on its stream (see Stream::enqueue).
    std::uint64_t task_id() const;
    // The operation stays incomplete after the work returns, until the handle completes it.
    DeferredCompletion defer();
    bool deferred() const { return deferred_; }
    // The observer installed when the operation started (nullptr: none), loaded once per operation.
    Observer* observer() const { return observer_; }

private:
    OpNode& node_;
    Observer* observer_;
    CompletionSink* sink_ = nullptr;
    bool deferred_ = false;
};

// The work reports failure by throwing OperationError (failure.h); any other exception fails the
// stream with ACL_ERROR_RT_INTERNAL_ERROR and its what() text.
using Work = detail::InplaceFunction<void(OpRun&), 64>;

struct Operation {
    OpKind kind;
    std::uint64_t bytes = 0;
    const char* name = nullptr;
    Work work;
    const void* symbol = nullptr;  // a kernel's function address, for the exception callbacks
    // Event record and wait: which record (Event::flow_id), so that a timeline can draw the
    // cross-stream edge; 0 for other operations and for a wait on an event never recorded.
    std::uint64_t flow = 0;
};

}  // namespace canopy::engine
