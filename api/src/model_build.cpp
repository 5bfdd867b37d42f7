// Model runtime instances built task by task: aclmdlRIBuildBegin, aclmdlRIBindStream (a persistent
// stream whose enqueued work is then recorded instead of run), aclmdlRIEndTask, aclmdlRIBuildEnd,
// aclmdlRIExecuteAsync, aclmdlRIUnbindStream, aclmdlRIDestroy. Executing a model enqueues one
// operation on the executing stream; it runs the tasks of each head stream in order (the NPU runs
// the head streams side by side; one after the other is one of its orders) and follows label
// switches (label.cpp). Capture (aclmdlRICaptureBegin) is not part of this.
#include "model_build.h"

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

// Runs a stream's tasks from `position`, following label switches (which may continue on another
// bound stream: the switch stops the current one).
void run_tasks(ModelStream* stream, std::size_t position, engine::OpRun& run) {
    while (position < stream->tasks.size()) {
        ModelTask& task = stream->tasks[position];
        switch (task.kind) {
            case ModelTask::Kind::operation:
                task.operation.work(run);
                ++position;
                break;
            case ModelTask::Kind::label: ++position; break;
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
        engine::Stream& target = target_stream(s, stream, "stream");
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
                                             for (auto& bound : model->streams)
                                                 if (bound->head) run_tasks(bound.get(), 0, run);
                                         }});
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
        s.models.remove(modelRI);
        // Streams still bound run their work again; executions still queued keep the model alive.
        std::lock_guard lock(model->mutex);
        for (auto& bound : model->streams)
            if (bound->stream && s.streams.reach(bound->handle) == bound->stream) unbind(*bound);
    });
}

}  // extern "C"
