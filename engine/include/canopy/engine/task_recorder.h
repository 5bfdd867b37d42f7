#pragma once
// A stream that records does not run what is enqueued on it: its recorder keeps each operation.
// The recorders: a stream bound to a model being built (model.h), a capturing stream (capture.h)
// and a stream updating a captured task group (capture.h).
#include "canopy/engine/operation.h"

namespace canopy::engine {

class Stream;

class TaskRecorder {
public:
    virtual ~TaskRecorder() = default;
    // May throw OperationError to refuse the operation (the caller's enqueue fails).
    virtual void record(Operation&& operation) = 0;

private:
    friend class Stream;
    // The stream is being destroyed (Stream::release_recorder): the recorder forgets it and the
    // stream records no more.
    virtual void detach(Stream& stream) = 0;
};

}  // namespace canopy::engine
