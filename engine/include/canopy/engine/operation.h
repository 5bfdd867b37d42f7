#pragma once
// What a stream runs: an Operation is a kind (for observers and capture), a size, and its work.
#include <cstdint>
#include <string>

#include "canopy/engine/detail/inplace_function.h"
#include "canopy/engine/observer.h"

namespace canopy::engine {

class OpNode;
class Stream;

// Lets work finish after its body has returned (a blocking callback completes when the subscribed
// thread has run it). Exactly one of complete() or fail() takes effect; destroying an unfinished
// DeferredCompletion completes the operation, so a stream can never be left waiting forever.
class DeferredCompletion {
public:
    DeferredCompletion() = default;
    explicit DeferredCompletion(OpNode* node) : node_(node) {}
    DeferredCompletion(DeferredCompletion&& other) noexcept : node_(other.node_) { other.node_ = nullptr; }
    DeferredCompletion& operator=(DeferredCompletion&& other) noexcept;
    DeferredCompletion(const DeferredCompletion&) = delete;
    DeferredCompletion& operator=(const DeferredCompletion&) = delete;
    ~DeferredCompletion() { complete(); }

    void complete();
    void fail(int code, const std::string& message);

private:
    OpNode* node_ = nullptr;
};

// Handed to the work while it runs.
class OpRun {
public:
    OpRun(OpNode& node, Observer* observer) : node_(node), observer_(observer) {}
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
