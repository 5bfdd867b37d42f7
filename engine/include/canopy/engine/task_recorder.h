#pragma once
// A stream bound to a model runtime instance that is being built (aclmdlRIBindStream) does not
// run what is enqueued on it: its recorder keeps each operation, and the model runs the recorded
// operations later, as many times as it is executed (aclmdlRIExecuteAsync).
#include "canopy/engine/operation.h"

namespace canopy::engine {

class TaskRecorder {
public:
    virtual ~TaskRecorder() = default;
    // May throw OperationError to refuse the operation (the caller's enqueue fails).
    virtual void record(Operation&& operation) = 0;
};

}  // namespace canopy::engine
