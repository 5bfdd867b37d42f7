#pragma once
// Model runtime instances built task by task (model_build.cpp) and the labels that steer them
// (label.cpp). A stream bound to a model that is being built records its operations, label
// markers and label switches as the model's tasks; executing the model runs one stream's tasks
// in order inside one operation of the executing stream, following label switches.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api.h"
#include "canopy/engine/captured_graph.h"
#include "canopy/engine/task_recorder.h"

namespace canopy::api {

struct Model;
struct ModelStream;

struct Label {
    std::mutex mutex;
    ModelStream* stream = nullptr;  // where aclrtSetLabel put it (nullptr: not set)
    std::size_t position = 0;       // its task index there
    std::weak_ptr<Model> model;
};

struct LabelList {
    std::vector<std::shared_ptr<Label>> labels;
};

struct ModelTask {
    // activate: run `target` (aclrtActiveStream); switch_stream: run it if `left cond right` holds.
    enum class Kind { operation, label, switch_by_index, activate, switch_stream };
    Kind kind;
    engine::Operation operation;                // Kind::operation
    std::shared_ptr<LabelList> labels;          // Kind::switch_by_index
    const std::uint32_t* index = nullptr;       // device memory read when the switch runs
    std::uint32_t max_value = 0;
    ModelStream* target = nullptr;              // Kind::activate, Kind::switch_stream
    const void* left = nullptr;                 // Kind::switch_stream: device memory read when it runs
    const void* right = nullptr;
    aclrtCondition condition = ACL_RT_EQUAL;
    bool wide = false;                          // ACL_RT_SWITCH_INT64
};

struct ModelStream final : engine::TaskRecorder {
    ModelStream(Model& model, void* handle, engine::Stream& stream, bool head)
        : model(model), handle(handle), stream(&stream), head(head) {}
    void record(engine::Operation&& operation) override;

    Model& model;
    void* const handle;
    engine::Stream* stream;  // nullptr once unbound
    const bool head;         // ACL_MODEL_STREAM_FLAG_HEAD: runs when the model starts
    bool ended = false;      // aclmdlRIEndTask
    std::vector<ModelTask> tasks;
};

struct Capture;

// What aclmdlRIDebugJsonPrint says about a captured task.
struct CapturedTaskInfo {
    int stream_id;
    engine::OpKind kind;
    std::string name;
};

struct Model {
    std::mutex mutex;  // guards everything below and every ModelStream's tasks
    bool building = true;
    std::vector<std::unique_ptr<ModelStream>> streams;

    // Captured models (capture.cpp). `capture` while its capture runs, then `graph`.
    std::shared_ptr<Capture> capture;
    std::shared_ptr<engine::CapturedGraph> graph;
    bool captured = false;  // from aclmdlRICaptureBegin or aclmdlRIAddCondTask, not aclmdlRIBuildBegin
    bool branch = false;    // a branch of a conditional task: runs only within its parent
    std::vector<void*> branches;  // handles of its conditional tasks' branch models
    std::vector<void*> cond_handles;
    std::vector<void*> cond_memory;  // device memory of its conditional handles
    std::vector<CapturedTaskInfo> tasks_info;
    std::vector<std::vector<std::size_t>> tasks_after;
};

// The bound stream a label task goes to: `stream` must be bound to a model that is being built and
// whose stream has not ended. The model's mutex is held by `lock` on return.
ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock);

// Captured models (capture.cpp): enqueue one replay; destroy (waits for the replays enqueued).
void execute_captured(Model& model, aclmdlRI handle, engine::Stream& stream, aclrtStream stream_handle);
void destroy_captured(State& state, const std::shared_ptr<Model>& model, aclmdlRI handle);

}  // namespace canopy::api
