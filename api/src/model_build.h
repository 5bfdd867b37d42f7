#pragma once
// Model runtime instances: built task by task (model_build.cpp, label.cpp; the engine's
// canopy/engine/model.h records and runs them) or captured (capture.cpp).
#include <memory>
#include <mutex>
#include <vector>

#include "api.h"
#include "canopy/engine/capture.h"
#include "canopy/engine/model.h"

namespace canopy::api {

struct Model {
    // aclmdlRIBuildBegin's model, or (nullptr) a captured one.
    std::shared_ptr<engine::BuiltModel> built;
    // aclmdlRICaptureBegin's model, or a branch of a conditional task (aclmdlRIAddCondTask).
    std::shared_ptr<engine::CapturedModel> captured;

    std::mutex mutex;  // guards the handles below
    std::vector<void*> branches;  // handles of its conditional tasks' branch models
    std::vector<void*> cond_handles;
    std::vector<void*> cond_memory;  // device memory of its conditional handles
};

// The live model of a handle (ACL_ERROR_INVALID_PARAM for NULL, ACL_ERROR_RT_INVALID_HANDLE otherwise).
std::shared_ptr<Model> model_handle(State& state, aclmdlRI handle);

// The bound stream a label task goes to: `stream` must be bound to a model that is being built and
// whose stream has not ended. The model's mutex is held by `lock` on return.
engine::ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock);

// Captured models (capture.cpp): enqueue one replay; destroy (waits for the replays enqueued).
void execute_captured(Model& model, aclmdlRI handle, engine::Stream& stream, aclrtStream stream_handle);
void destroy_captured(State& state, const std::shared_ptr<Model>& model, aclmdlRI handle);

}  // namespace canopy::api
