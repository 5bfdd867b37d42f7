#pragma once
// Model runtime instances built task by task (model_build.cpp) and the labels that steer them
// (label.cpp). A stream bound to a model that is being built records its operations, label
// markers and label switches as the model's tasks; executing the model runs one stream's tasks
// in order inside one operation of the executing stream, following label switches.
#include <memory>
#include <mutex>
#include <vector>

#include "api.h"
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
    enum class Kind { operation, label, switch_by_index };
    Kind kind;
    engine::Operation operation;                // Kind::operation
    std::shared_ptr<LabelList> labels;          // Kind::switch_by_index
    const std::uint32_t* index = nullptr;       // device memory read when the switch runs
    std::uint32_t max_value = 0;
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

struct Model {
    std::mutex mutex;  // guards everything below and every ModelStream's tasks
    bool building = true;
    std::vector<std::unique_ptr<ModelStream>> streams;
};

// The bound stream a label task goes to: `stream` must be bound to a model that is being built and
// whose stream has not ended. The model's mutex is held by `lock` on return.
ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock);

}  // namespace canopy::api
