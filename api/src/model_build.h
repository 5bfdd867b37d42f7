#pragma once
// Model runtime instances: built task by task (model_build.cpp, label.cpp; the engine's
// canopy/engine/model.h records and runs them) or captured (capture.cpp).
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api.h"
#include "canopy/engine/captured_graph.h"
#include "canopy/engine/model.h"

namespace canopy::api {

struct Capture;

// What aclmdlRIDebugJsonPrint says about a captured task.
struct CapturedTaskInfo {
    int stream_id;
    engine::OpKind kind;
    std::string name;
};

struct Model {
    // aclmdlRIBuildBegin's model (nullptr for a captured one).
    std::shared_ptr<engine::BuiltModel> built;

    std::mutex mutex;  // guards everything below
    // Captured models (capture.cpp). `capture` while its capture runs, then `graph`.
    std::shared_ptr<Capture> capture;
    std::shared_ptr<engine::CapturedGraph> graph;
    bool branch = false;    // a branch of a conditional task: runs only within its parent
    std::vector<void*> branches;  // handles of its conditional tasks' branch models
    std::vector<void*> cond_handles;
    std::vector<void*> cond_memory;  // device memory of its conditional handles
    std::vector<CapturedTaskInfo> tasks_info;
    std::vector<std::vector<std::size_t>> tasks_after;
};

// The bound stream a label task goes to: `stream` must be bound to a model that is being built and
// whose stream has not ended. The model's mutex is held by `lock` on return.
engine::ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock);

// Captured models (capture.cpp): enqueue one replay; destroy (waits for the replays enqueued).
void execute_captured(Model& model, aclmdlRI handle, engine::Stream& stream, aclrtStream stream_handle);
void destroy_captured(State& state, const std::shared_ptr<Model>& model, aclmdlRI handle);

}  // namespace canopy::api
