// Models built task by task: the bound streams' recorder and the run of a built model (model.h).
#include "canopy/engine/model.h"

#include <deque>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

void ModelStream::record(Operation&& operation) {
    std::lock_guard lock(model.mutex);
    if (!model.building || ended) {
        throw OperationError(ACL_ERROR_RT_STREAM_MODEL,
                             std::string("the stream is bound to a model whose ") +
                                 (model.building ? "tasks on it have ended (aclmdlRIEndTask)" : "build has ended (aclmdlRIBuildEnd)"));
    }
    tasks.push_back(ModelTask{ModelTask::Kind::operation, std::move(operation)});
}

ModelStream* ModelStream::of(const Stream& stream) { return dynamic_cast<ModelStream*>(stream.recorder()); }

void ModelStream::detach(Stream& destroyed) {
    std::lock_guard lock(model.mutex);
    if (stream == &destroyed) BuiltModel::unbind(*this);
}

ModelStream* BuiltModel::bound(const Stream& stream) const {
    for (const auto& binding : streams)
        if (binding->stream == &stream) return binding.get();
    return nullptr;
}

ModelStream& BuiltModel::bind(Stream& stream, bool head) {
    streams.push_back(std::make_unique<ModelStream>(*this, stream, head));
    stream.set_recorder(streams.back().get());
    return *streams.back();
}

void BuiltModel::unbind(ModelStream& bound) {
    if (bound.stream) bound.stream->set_recorder(nullptr);
    bound.stream = nullptr;
}

void BuiltModel::unbind_all() {
    std::lock_guard lock(mutex);
    for (auto& binding : streams) unbind(*binding);
}

namespace {

template <class T>
bool compare(const void* left, const void* right, Comparison condition) {
    const T a = *static_cast<const T*>(left);
    const T b = *static_cast<const T*>(right);
    switch (condition) {
        case Comparison::equal: return a == b;
        case Comparison::not_equal: return a != b;
        case Comparison::greater: return a > b;
        case Comparison::greater_or_equal: return a >= b;
        case Comparison::less: return a < b;
        case Comparison::less_or_equal: return a <= b;
    }
    return false;
}

// Runs a stream's tasks from `position`, following label switches (which may continue on another
// bound stream: the switch stops the current one); streams it activates join `activated`.
void run_tasks(ModelStream* stream, std::size_t position, OpRun& run, std::deque<ModelStream*>& activated) {
    while (position < stream->tasks.size()) {
        ModelTask& task = stream->tasks[position];
        switch (task.kind) {
            case ModelTask::Kind::operation:
                task.operation.work(run);
                ++position;
                break;
            case ModelTask::Kind::label: ++position; break;
            case ModelTask::Kind::activate:
                activated.push_back(task.target);
                ++position;
                break;
            case ModelTask::Kind::switch_stream:
                if (task.wide ? compare<std::int64_t>(task.left, task.right, task.condition)
                              : compare<std::int32_t>(task.left, task.right, task.condition)) {
                    activated.push_back(task.target);
                }
                ++position;
                break;
            case ModelTask::Kind::switch_by_index: {
                std::uint32_t index = *task.index;
                // An index past the list goes to its last label, as on the device.
                if (index >= task.max_value) index = task.max_value - 1;
                Label& label = *task.labels->labels[index];
                std::lock_guard lock(label.mutex);
                if (!label.stream) {
                    throw OperationError(ACL_ERROR_RT_LABEL_CONTEXT,
                                         "label switch to index " + std::to_string(index) +
                                             ": that label was never set on a stream of the model (aclrtSetLabel)");
                }
                stream = label.stream;
                position = label.position + 1;
                break;
            }
        }
    }
}

}  // namespace

void execute(const std::shared_ptr<BuiltModel>& model, Stream& stream) {
    stream.enqueue(Operation{OpKind::kernel, 1, "model", [model](OpRun& run) {
                                 // A built model no longer changes: its tasks are read without the lock.
                                 std::deque<ModelStream*> ready;
                                 for (auto& bound : model->streams)
                                     if (bound->head) ready.push_back(bound.get());
                                 while (!ready.empty()) {
                                     ModelStream* next = ready.front();
                                     ready.pop_front();
                                     run_tasks(next, 0, run, ready);
                                 }
                             }});
}

}  // namespace canopy::engine
