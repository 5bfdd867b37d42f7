// Model runtime instances built task by task: aclmdlRIBuildBegin, aclmdlRIBindStream (a persistent
// stream whose enqueued work is then recorded instead of run), aclmdlRIEndTask, aclmdlRIBuildEnd,
// aclmdlRIExecuteAsync, aclmdlRIExecute, aclmdlRIUnbindStream, aclmdlRIDestroy, and the stream
// tasks aclrtActiveStream and aclrtSwitchStream: their checks and errors, over the engine's built
// models (canopy/engine/model.h), which record the bound streams' work and run it.
// Captured models (capture.cpp) share the handles, execution and destruction.
#include "model_build.h"

#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"

namespace canopy::api {

static_assert(static_cast<int>(engine::Comparison::equal) == ACL_RT_EQUAL &&
              static_cast<int>(engine::Comparison::less_or_equal) == ACL_RT_LESS_OR_EQUAL);

engine::ModelStream& recording_stream(State& state, aclrtStream stream, std::unique_lock<std::mutex>& lock) {
    engine::Stream& target = target_stream(state, stream, "stream");
    engine::ModelStream* recording = engine::ModelStream::of(target);
    if (!recording)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to a model runtime instance (aclmdlRIBindStream)");
    lock = std::unique_lock(recording->model.mutex);
    if (!recording->model.building)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + ": its model's build has ended (aclmdlRIBuildEnd)");
    if (recording->ended)
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + ": its tasks have ended (aclmdlRIEndTask)");
    return *recording;
}

std::shared_ptr<Model> model_handle(State& state, aclmdlRI handle) {
    require(handle, "modelRI");
    std::shared_ptr<Model> model = state.models.share(handle);
    if (!model) fail(ACL_ERROR_RT_INVALID_HANDLE, "modelRI " + describe(handle) + " is not a live model runtime instance");
    return model;
}

namespace {

// The stream's binding to the model, if the model is built task by task and the stream is bound
// to it; `lock` holds the model's mutex once it is built task by task.
engine::ModelStream* binding(const Model& model, const engine::Stream& stream, std::unique_lock<std::mutex>& lock) {
    if (!model.built) return nullptr;
    lock = std::unique_lock(model.built->mutex);
    return model.built->bound(stream);
}

// Enqueues one execution of a model (built or captured) on `target`.
void execute(const std::shared_ptr<Model>& model, aclmdlRI modelRI, engine::Stream& target, aclrtStream stream) {
    if (!model->built) {
        execute_captured(*model, modelRI, target, stream);
        return;
    }
    {
        std::lock_guard lock(model->built->mutex);
        if (model->built->building) {
            fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + " is still being built (aclmdlRIBuildEnd)");
        }
        if (model->built->bound(target)) {
            fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is bound to the model it would execute");
        }
    }
    engine::execute(model->built, target);
}

// The stream bound to the model `recording` belongs to under `handle` (model mutex held).
engine::ModelStream& bound_peer(engine::ModelStream& recording, const engine::Stream& stream, aclrtStream handle,
                                const char* argument) {
    engine::ModelStream* peer = recording.model.bound(stream);
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
        auto model = std::make_shared<Model>();
        model->built = std::make_shared<engine::BuiltModel>();
        *modelRI = s.models.add(std::move(model));
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
        if (!model->built) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has ended");
        engine::BuiltModel& built = *model->built;
        std::lock_guard lock(built.mutex);
        if (!built.building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has ended");
        if (target.recorder()) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is already bound to a model");
        built.bind(target, flag == ACL_MODEL_STREAM_FLAG_HEAD);
    });
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
    return call("aclmdlRIEndTask", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        engine::Stream& target = target_stream(s, stream, "stream");
        std::unique_lock<std::mutex> lock;
        engine::ModelStream* bound = binding(*model, target, lock);
        if (!bound) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to modelRI " + describe(modelRI));
        if (!model->built->building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has ended");
        bound->ended = true;
    });
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
    return call("aclmdlRIBuildEnd", [&] {
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (!model->built) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has already ended");
        std::lock_guard lock(model->built->mutex);
        if (!model->built->building) fail(ACL_ERROR_RT_STREAM_MODEL, "modelRI " + describe(modelRI) + ": its build has already ended");
        model->built->building = false;
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
        engine::Stream& target = target_stream(s, stream, "stream");
        std::unique_lock<std::mutex> lock;
        engine::ModelStream* bound = binding(*model, target, lock);
        if (!bound) fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) + " is not bound to modelRI " + describe(modelRI));
        engine::BuiltModel::unbind(*bound);
    });
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    return call("aclmdlRIDestroy", [&] {
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (!model->built) {
            destroy_captured(s, model, modelRI);
            return;
        }
        s.models.remove(modelRI);
        // Streams still bound run their work again; executions still queued keep the model alive.
        model->built->unbind_all();
    });
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
    return call("aclrtActiveStream", [&] {
        State& s = state();
        require(activeStream, "activeStream");
        const engine::Stream& active_target = target_stream(s, activeStream, "activeStream");
        std::unique_lock<std::mutex> model_lock;
        engine::ModelStream& recording = recording_stream(s, stream, model_lock);
        engine::ModelTask task{engine::ModelTask::Kind::activate};
        task.target = &bound_peer(recording, active_target, activeStream, "activeStream");
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
        const engine::Stream& true_target = target_stream(s, trueStream, "trueStream");
        std::unique_lock<std::mutex> model_lock;
        engine::ModelStream& recording = recording_stream(s, stream, model_lock);
        engine::ModelTask task{engine::ModelTask::Kind::switch_stream};
        task.target = &bound_peer(recording, true_target, trueStream, "trueStream");
        task.left = leftValue;
        task.right = rightValue;
        task.condition = static_cast<engine::Comparison>(condition);
        task.wide = type == ACL_RT_SWITCH_INT64;
        recording.tasks.push_back(std::move(task));
    });
}

}  // extern "C"
