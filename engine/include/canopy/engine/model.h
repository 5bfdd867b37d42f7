#pragma once
// Models built task by task (aclmdlRIBuildBegin ... aclmdlRIBuildEnd) and the labels that steer
// them. A stream bound to a model that is being built records its operations, label markers,
// label switches and stream activations as the model's tasks (its recorder is a ModelStream);
// running the model is one operation of the executing stream that runs the tasks of each head
// stream in order, then of each stream activated (the NPU runs them side by side; one after the
// other is one of its orders: an activated stream runs after the one that activated it has
// ended), and follows label switches, which may continue on another bound stream.
//
// The objects are plain: their users check what a call may do under `BuiltModel::mutex` and then
// change them through the functions here.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "canopy/engine/operation.h"
#include "canopy/engine/task_recorder.h"

namespace canopy::engine {

class BuiltModel;
class ModelStream;
class Stream;

// A position in the task list of a bound stream (aclrtSetLabel).
struct Label {
    std::mutex mutex;
    ModelStream* stream = nullptr;  // where it was set (nullptr: not set)
    std::size_t position = 0;       // its task index there
};

struct LabelList {
    std::vector<std::shared_ptr<Label>> labels;
};

// A switch task's comparison (CANN's aclrtCondition, in its order).
enum class Comparison { equal = 0, not_equal, greater, greater_or_equal, less, less_or_equal };

struct ModelTask {
    // activate: run `target` (aclrtActiveStream); switch_stream: run it if `left cond right` holds.
    enum class Kind { operation, label, switch_by_index, activate, switch_stream };
    Kind kind;
    Operation operation{};                 // Kind::operation
    std::shared_ptr<LabelList> labels{};   // Kind::switch_by_index
    const std::uint32_t* index = nullptr;  // device memory read when the switch runs
    std::uint32_t max_value = 0;
    ModelStream* target = nullptr;         // Kind::activate, Kind::switch_stream
    const void* left = nullptr;            // Kind::switch_stream: device memory read when it runs
    const void* right = nullptr;
    Comparison condition = Comparison::equal;
    bool wide = false;                     // 64-bit values (32-bit otherwise)
};

// A stream bound to a model: the recorder that appends what is enqueued on the stream to the
// model's tasks, refused once the stream's tasks or the build have ended.
class ModelStream final : public TaskRecorder {
public:
    ModelStream(BuiltModel& model, Stream& stream, bool head) : model(model), stream(&stream), head(head) {}
    void record(Operation&& operation) override;
    // The stream's recorder if it is bound to a model.
    static ModelStream* of(const Stream& stream);

    BuiltModel& model;
    Stream* stream;        // nullptr once unbound (or destroyed: TaskRecorder::detach)
    const bool head;       // runs when the model starts (ACL_MODEL_STREAM_FLAG_HEAD)
    bool ended = false;    // aclmdlRIEndTask
    std::vector<ModelTask> tasks;

private:
    void detach(Stream& stream) override;
};

class BuiltModel {
public:
    std::mutex mutex;  // guards everything below and every ModelStream's tasks
    bool building = true;
    std::vector<std::unique_ptr<ModelStream>> streams;

    // The stream's binding to this model, if it is bound (mutex held).
    ModelStream* bound(const Stream& stream) const;
    // Binds a stream without a recorder (mutex held).
    ModelStream& bind(Stream& stream, bool head);
    // Unbinds a bound stream: its work runs again (mutex held).
    static void unbind(ModelStream& bound);
    // Unbinds every bound stream (for the model's destruction; takes the mutex).
    void unbind_all();
};

// Enqueues one run of a built model on `stream`. The model's build must have ended.
void execute(const std::shared_ptr<BuiltModel>& model, Stream& stream);

}  // namespace canopy::engine
