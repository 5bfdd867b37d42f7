// Model runtime instances built task by task: aclmdlRIBuildBegin, aclmdlRIBindStream (a persistent
// stream whose enqueued work is then recorded instead of run), aclmdlRIEndTask, aclmdlRIBuildEnd,
// aclmdlRIExecuteAsync, aclmdlRIExecute, aclmdlRIUnbindStream, aclmdlRIDestroy, and the stream
// tasks aclrtActiveStream and aclrtSwitchStream. Executing a model enqueues one operation on the
// executing stream; it runs the tasks of each head stream in order, then of each stream activated
// (the NPU runs them side by side; one after the other is one of its orders: an activated stream
// runs after the one that activated it has ended), and follows label switches (label.cpp).
// Captured models (capture.cpp) share the handles, execution and destruction.
#include "model_build.h"

#include <deque>

#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"

namespace canopy::api {

void ModelStream::record(engine::Operation&& operation) {
    std::lock_guard lock(model.mutex);
    if (!model.building || ended) {
        throw engine::OperationError(ACL_ERROR_RT_STREAM_MODEL,
                                     std::string("the stream is bound to a model whose ") +
                                         (model.building ? "tasks on it have ended (aclmdlRIEndTask)" : "build has ended (aclmdlRIBuildEnd)"));
    }
    tasks.push_back(ModelTask{ModelTask::Kind::operation, std::move(operation), nullptr, nullptr, 0});
}

ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock) {
    engine::Stream& target = target_stream(state, stream, "stream");
    auto* recording = dynamic_cast<ModelStream*>(target.recorder());
    if (!recording)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to a model runtime instance (aclmdlRIBindStream)");
    lock = std::unique_lock(recording->model.mutex);
    if (!recording->model.building)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + ": its model's build has ended (aclmdlRIBuildEnd)");
    if (recording->ended)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + ": its tasks have ended (aclmdlRIEndTask)");
    return *recording;
}

namespace {

std::shared_ptr<Model> model_handle(State& state, aclmdlRI handle) {
    require(handle, "modelRI");
    std::shared_ptr<Model> model = state.models.share(handle);
    if (!model) fail(ACL_ERROR_RT_INVALID_HANDLE, "modelRI " + describe(handle) + " is not a live model runtime instance");
    return model;
}

ModelStream* bound_stream(Model& model, void* handle) {
    for (auto& bound : model.streams)
        if (bound->handle == handle && bound->stream) return bound.get();
    return nullptr;
}

void unbind(ModelStream& bound) {
    if (bound.stream) bound.stream->set_recorder(nullptr);
    bound.stream = nullptr;
}

template <class T>
bool compare(const void* left, const void* right, aclrtCondition condition) {
    const T a = *static_cast<const T*>(left);
    const T b = *static_cast<const T*>(right);
    switch (condition) {
        case ACL_RT_EQUAL: return a == b;
        case ACL_RT_NOT_EQUAL: return a != b;
        case ACL_RT_GREATER: return a > b;
        case ACL_RT_GREATER_OR_EQUAL: return a >= b;
        case ACL_RT_LESS: return a < b;
        case ACL_RT_LESS_OR_EQUAL: return a <= b;
    }
    return false;
}

// Runs a stream's tasks from `position`, following label switches (which may continue on another
// bound stream: the switch stops the current one); streams it activates join `activated`.
void run_tasks(ModelStream* stream, std::size_t position, engine::OpRun& run, std::deque<ModelStream*>& activated) {
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
                    throw engine::OperationError(ACL_ERROR_RT_LABEL_CONTEXT,
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

// Enqueues one execution of a model (built or captured) on `target`.
void execute(const std::shared_ptr<Model>& model, aclmdlRI modelRI, engine::Stream& target, aclrtStream stream) {
    if (model->captured) {
        execute_captured(*model, modelRI, target, stream);
        return;
    }
    {
        std::lock_guard lock(model->mutex);
        if (model->building) {
            fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + " is still being built (aclmdlRIBuildEnd)");
        }
        if (bound_stream(*model, stream)) {
            fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is bound to the model it would execute");
        }
    }
    target.enqueue(engine::Operation{engine::OpKind::kernel, 1, "model", [model](engine::OpRun& run) {
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

// The stream bound to the model `recording` belongs to under `handle` (model mutex held).
ModelStream& bound_peer(ModelStream& recording, aclrtStream handle, const char* argument) {
    ModelStream* peer = bound_stream(recording.model, handle);
    if (!peer) {
        fail(ACL_ERROR_RT_STREAM_MODEL, std::string(argument) + " " + describe(handle) +
                                            " is not bound to the model that the task's stream is bound to");
    }
    return *peer;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
    return call("aclmdlRIBuildBegin", [&] {
        require(modelRI, "modelRI");
        if (flag != 0) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " must be 0 (reserved)");
        State& s = state();
        current_context(s);
        *modelRI = s.models.add(std::make_shared<Model>());
    });
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
    return call("aclmdlRIBindStream", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        require(stream, "stream");
        if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) +
                                              " is neither ACL_MODEL_STREAM_FLAG_HEAD nor ACL_MODEL_STREAM_FLAG_DEFAULT");
        }
        engine::Stream& target = target_stream(s, stream, "stream");
        if (!(target.flags() & ACL_STREAM_PERSISTENT)) {
            fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) +
                                              " was not created with ACL_STREAM_PERSISTENT (aclrtCreateStreamWithConfig)");
        }
        std::lock_guard lock(model->mutex);
        if (!model->building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has ended");
        if (target.recorder()) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is already bound to a model");
        model->streams.push_back(std::make_unique<ModelStream>(*model, stream, target, flag == ACL_MODEL_STREAM_FLAG_HEAD));
        target.set_recorder(model->streams.back().get());
    });
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
    return call("aclmdlRIEndTask", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        target_stream(s, stream, "stream");
        std::lock_guard lock(model->mutex);
        ModelStream* bound = bound_stream(*model, stream);
        if (!bound) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to modelRI " + describe(modelRI));
        if (!model->building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has ended");
        bound->ended = true;
    });
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
    return call("aclmdlRIBuildEnd", [&] {
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        std::lock_guard lock(model->mutex);
        if (!model->building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has already ended");
        model->building = false;
    });
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    return call("aclmdlRIExecuteAsync", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        execute(model, modelRI, target_stream(s, stream, "stream"), stream);
    });
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    return call("aclmdlRIExecute", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (timeout < -1 || timeout == 0)
            fail(ACL_ERROR_INVALID_PARAM, "timeout " + std::to_string(timeout) + " is neither -1 (no limit) nor a positive ms count");
        if (engine::in_stream_work()) {
            fail(ACL_ERROR_RT_NO_PERMISSION, "a host function or callback cannot wait for a model to run (use aclmdlRIExecuteAsync)");
        }
        engine::Context& context = current_context(s);
        // CANN runs the model on a stream of its own and waits for it.
        auto stream = std::make_shared<engine::Stream>(context, engine::Stream::least_priority, 0);
        execute(model, modelRI, *stream, nullptr);
        const engine::Failure failure = stream->synchronize(timeout);
        // An execution still running when the wait gives up finishes on its own.
        if (failure.code == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) context.retire(std::move(stream));
        check(failure);
    });
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
    return call("aclmdlRIUnbindStream", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        target_stream(s, stream, "stream");
        std::lock_guard lock(model->mutex);
        ModelStream* bound = bound_stream(*model, stream);
        if (!bound) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to modelRI " + describe(modelRI));
        unbind(*bound);
    });
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    return call("aclmdlRIDestroy", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (model->captured) {
            destroy_captured(s, model, modelRI);
            return;
        }
        s.models.remove(modelRI);
        // Streams still bound run their work again; executions still queued keep the model alive.
        std::lock_guard lock(model->mutex);
        for (auto& bound : model->streams)
            if (bound->stream && s.streams.reach(bound->handle) == bound->stream) unbind(*bound);
    });
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
    return call("aclrtActiveStream", [&] {
        State& s = state();
        require(activeStream, "activeStream");
        target_stream(s, activeStream, "activeStream");
        std::unique_lock<std::mutex> model_lock;
        ModelStream& recording = recording_stream(s, stream, model_lock);
        ModelStream& active = bound_peer(recording, activeStream, "activeStream");
        ModelTask task{ModelTask::Kind::activate, {}, nullptr, nullptr, 0};
        task.target = &active;
        recording.tasks.push_back(std::move(task));
    });
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream) {
    return call("aclrtSwitchStream", [&] {
        State& s = state();
        const auto condition = raw_value(cond);
        if (condition < ACL_RT_EQUAL || condition > ACL_RT_LESS_OR_EQUAL)
            fail(ACL_ERROR_INVALID_PARAM, "cond " + std::to_string(condition) + " is not an aclrtCondition");
        const auto type = raw_value(dataType);
        if (type != ACL_RT_SWITCH_INT32 && type != ACL_RT_SWITCH_INT64)
            fail(ACL_ERROR_INVALID_PARAM, "dataType " + std::to_string(type) + " is not an aclrtCompareDataType");
        const std::size_t width = type == ACL_RT_SWITCH_INT64 ? 8 : 4;
        auto check_value = [&](void* pointer, const char* argument) {
            require(pointer, argument);
            const std::optional<engine::Allocation> allocation = allocation_of(s, pointer, argument);
            if (!allocation || allocation->kind != engine::MemoryKind::device)
                fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is not device memory from aclrtMalloc");
            if (reinterpret_cast<std::uintptr_t>(pointer) - allocation->base + width > allocation->size)
                fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + ": the value runs past its allocation");
            if (reinterpret_cast<std::uintptr_t>(pointer) % width != 0)
                fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is not aligned to its type");
        };
        check_value(leftValue, "leftValue");
        check_value(rightValue, "rightValue");
        if (falseStream) fail(ACL_ERROR_INVALID_PARAM, "falseStream must be NULL (reserved)");
        require(trueStream, "trueStream");
        target_stream(s, trueStream, "trueStream");
        std::unique_lock<std::mutex> model_lock;
        ModelStream& recording = recording_stream(s, stream, model_lock);
        ModelTask task{ModelTask::Kind::switch_stream, {}, nullptr, nullptr, 0};
        task.target = &bound_peer(recording, trueStream, "trueStream");
        task.left = leftValue;
        task.right = rightValue;
        task.condition = static_cast<aclrtCondition>(condition);
        task.wide = type == ACL_RT_SWITCH_INT64;
        recording.tasks.push_back(std::move(task));
    });
}

}  // extern "C"
