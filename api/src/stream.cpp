// Streams: creation (also from a config handle), synchronization, queries, failure mode, stop and
// abort, state callbacks, and host functions.
#include <limits>
#include <map>
#include <optional>

#include "api.h"
#include "canopy/engine/wait_list.h"

namespace canopy::api {

engine::Stream& stream_handle(State& state, aclrtStream stream, const char* argument) {
    if (!stream) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    engine::Stream* found = state.streams.reach(stream);
    if (!found) fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(stream) + " is not a live stream");
    return *found;
}

engine::Stream& target_stream(State& state, aclrtStream stream, const char* argument) {
    engine::Context& context = current_context(state);
    if (!stream) return context.default_stream();
    engine::Stream& found = stream_handle(state, stream, argument);
    if (&found.context() != &context) {
        fail(ACL_ERROR_RT_STREAM_CONTEXT, std::string(argument) + " " + describe(stream) +
                                              " belongs to another context than the calling thread's current one");
    }
    return found;
}

void refuse_waiting_for_own_work(const engine::Stream& stream, const char* what) {
    if (engine::runs_work_of(stream)) {
        fail(ACL_ERROR_RT_NO_PERMISSION, std::string(what) + " stream " + std::to_string(stream.id()) +
                                             " from a host function or callback running on it: it would wait for itself");
    }
}

void refuse_waiting_for_own_work(const engine::Device& device, const char* what) {
    if (engine::runs_work_of(device)) {
        fail(ACL_ERROR_RT_NO_PERMISSION, std::string(what) + " device " + std::to_string(device.id()) +
                                             " from a host function or callback running on one of its streams: it "
                                             "would wait for itself");
    }
}

namespace {
void check_timeout(int32_t timeout) {
    if (timeout < -1) fail(ACL_ERROR_RT_PARAM_INVALID, "timeout " + std::to_string(timeout) + " is below -1");
}

engine::Stream& destroyable_stream(State& state, aclrtStream stream) {
    engine::Stream& found = stream_handle(state, stream, "stream");
    if (&found == &found.context().default_stream())
        fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) + " is a default stream, which cannot be destroyed");
    return found;
}

void destroy_stream(State& state, aclrtStream stream, bool force) {
    engine::Stream& found = destroyable_stream(state, stream);
    if (capturing(found))
        fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream) + " is capturing: end its capture first (aclmdlRICaptureEnd)");
    // Once removed from the table the stream is out of a reset's sight: its context stays pinned
    // until the call returns, so that a reset of the device on another thread waits for this call
    // before it destroys the context and the device under the stream.
    if (void* context = state.contexts.handle_of(&found.context())) state.contexts.reach(context);
    // A forced destroy discards the queued work instead of waiting for it.
    if (!force) refuse_waiting_for_own_work(found, "cannot destroy");
    // What may fail for want of memory comes before the destroy has any effect.
    std::optional<engine::WaitList::Abandonment> abandonment;
    std::string abandoned_message;
    if (force) {
        abandonment.emplace(found);
        abandoned_message = "stream " + describe(stream) + " was destroyed (aclrtDestroyStreamForce) while the wait was pending";
    }
    notify_stream_state(stream, ACL_RT_STREAM_STATE_DESTROY_PRE);
    // Callbacks waiting for a subscriber run here, so the stream's work (and a call of another
    // thread synchronizing it) can finish.
    state.runtime.reports().forget(found);
    found.release_recorder();  // a model unbinds it, an update begun on it and never ended is dropped
    // Notify, value and replayed event waits parked on it fail, so that its work (and a call of
    // another thread synchronizing it) can finish.
    if (abandonment) engine::WaitList::abandon_stream(std::move(*abandonment), ACL_ERROR_RT_STREAM_ABORT, abandoned_message);
    // Calls of other threads that reached the stream return before it goes.
    std::shared_ptr<engine::Stream> owned = state.streams.remove(stream);
    if (!owned) fail(ACL_ERROR_RT_INVALID_HANDLE, "stream " + describe(stream) + " was destroyed by another thread meanwhile");
    if (force) found.context().retire(std::move(owned));
    else owned.reset();  // waits for what is left
}

void* add_stream(State& state, std::shared_ptr<engine::Stream> stream) {
    const StreamStateCallbacks callbacks;
    void* handle = state.streams.add(std::move(stream));
    callbacks.announce(handle, ACL_RT_STREAM_STATE_CREATE_POST);
    return handle;
}

constexpr uint32_t known_stream_flags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT |
                                        ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;

void* create_stream(State& state, uint64_t priority, uint64_t flag) {
    if (flag & ~uint64_t{known_stream_flags}) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " has unknown bits");
    // Out-of-range priorities are clamped, as CANN does.
    const int clamped = static_cast<int>(std::min<uint64_t>(priority, engine::Stream::least_priority));
    return add_stream(state, std::make_shared<engine::Stream>(current_context(state), clamped, static_cast<uint32_t>(flag)));
}

struct StateCallback {
    aclrtStreamStateCallback callback;
    void* args;
};
std::mutex state_callbacks_mutex;
std::map<std::string, StateCallback> state_callbacks;
}  // namespace

std::vector<void*> stream_handles(State& state, const std::function<bool(const engine::Stream&)>& selected) {
    std::vector<const engine::Stream*> streams;
    state.streams.for_each([&](const engine::Stream& stream) {
        if (selected(stream)) streams.push_back(&stream);
    });
    std::vector<void*> handles;
    for (const engine::Stream* stream : streams) handles.push_back(state.streams.handle_of(stream));
    return handles;
}

StreamStateCallbacks::StreamStateCallbacks() {
    std::lock_guard lock(state_callbacks_mutex);
    entries_.reserve(state_callbacks.size());
    for (const auto& [name, entry] : state_callbacks) entries_.push_back({entry.callback, entry.args});
}

void StreamStateCallbacks::announce(void* handle, aclrtStreamState stream_state) const {
    for (const Entry& entry : entries_) entry.callback(handle, stream_state, entry.args);
}

void notify_stream_state(void* handle, aclrtStreamState stream_state) {
    StreamStateCallbacks().announce(handle, stream_state);
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    return call("aclrtCreateStream", [&] {
        require(stream, "stream");
        *stream = create_stream(state(), 0, 0);
    });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    return call("aclrtCreateStreamWithConfig", [&] {
        require(stream, "stream");
        *stream = create_stream(state(), priority, flag);
    });
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
    aclrtStreamConfigHandle* handle = nullptr;
    call("aclrtCreateStreamConfigHandle", [&] { handle = new aclrtStreamConfigHandle{nullptr, 0, 0, 0}; });
    return handle;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
    return call("aclrtDestroyStreamConfigHandle", [&] {
        require(handle, "handle");
        delete handle;
    });
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr, const void* attrValue,
                                 size_t valueSize) {
    return call("aclrtSetStreamConfigOpt", [&] {
        require(handle, "handle");
        require(attrValue, "attrValue");
        auto read = [&](auto& field) {
            using Field = std::remove_reference_t<decltype(field)>;
            // Integers may be given in any width up to the field's; a wider value must fit.
            if (valueSize != sizeof(uint32_t) && valueSize != sizeof(uint64_t))
                fail(ACL_ERROR_INVALID_PARAM, "valueSize " + std::to_string(valueSize) + " is neither 4 nor 8 bytes");
            uint64_t value = 0;
            if (valueSize == sizeof(uint32_t)) {
                uint32_t narrow;
                std::memcpy(&narrow, attrValue, sizeof narrow);
                value = narrow;
            } else {
                std::memcpy(&value, attrValue, sizeof value);
            }
            if (value > std::numeric_limits<Field>::max())
                fail(ACL_ERROR_INVALID_PARAM, "attrValue " + std::to_string(value) + " does not fit the attribute");
            field = static_cast<Field>(value);
        };
        switch (raw_value(attr)) {
            case ACL_RT_STREAM_WORK_ADDR_PTR:
                if (valueSize != sizeof(void*)) fail(ACL_ERROR_INVALID_PARAM, "valueSize must be sizeof(void*) for ACL_RT_STREAM_WORK_ADDR_PTR");
                std::memcpy(&handle->workptr, attrValue, sizeof(void*));
                break;
            case ACL_RT_STREAM_WORK_SIZE: read(handle->workSize); break;
            case ACL_RT_STREAM_FLAG: read(handle->flag); break;
            case ACL_RT_STREAM_PRIORITY: read(handle->priority); break;
            default: fail(ACL_ERROR_INVALID_PARAM, "attr " + std::to_string(raw_value(attr)) + " is not an aclrtStreamConfigAttr");
        }
    });
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
    return call("aclrtCreateStreamV2", [&] {
        require(stream, "stream");
        require(handle, "handle");
        // The work area belongs to model execution (captured streams), which Canopy's streams do not need.
        *stream = create_stream(state(), handle->priority, handle->flag);
    });
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
    return call("aclrtStreamGetId", [&] {
        require(streamId, "streamId");
        State& s = state();
        *streamId = target_stream(s, stream, "stream").id();
    });
}

aclError aclrtStreamStop(aclrtStream stream) {
    return call("aclrtStreamStop", [&] {
        State& s = state();
        if (!stream) fail(ACL_ERROR_INVALID_PARAM, "stream is NULL: the default stream cannot be stopped");
        target_stream(s, stream, "stream").stop();
    });
}

aclError aclrtStreamAbort(aclrtStream stream) {
    return call("aclrtStreamAbort", [&] {
        State& s = state();
        target_stream(s, stream, "stream").abort();
    });
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
    return call("aclrtGetThreadLastTaskId", [&] {
        require(taskId, "taskId");
        state();
        *taskId = static_cast<uint32_t>(engine::last_task_id());
    });
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args) {
    return call("aclrtRegStreamStateCallback", [&] {
        require(regName, "regName");
        if (!*regName) fail(ACL_ERROR_INVALID_PARAM, "regName is empty");
        std::lock_guard lock(state_callbacks_mutex);
        if (!callback) {
            state_callbacks.erase(regName);
            return;
        }
        if (!state_callbacks.emplace(regName, StateCallback{callback, args}).second)
            fail(ACL_ERROR_INVALID_PARAM, std::string("regName \"") + regName + "\" is already registered");
    });
}

aclError aclrtDestroyStream(aclrtStream stream) {
    return call("aclrtDestroyStream", [&] { destroy_stream(state(), stream, false); });
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
    return call("aclrtDestroyStreamForce", [&] { destroy_stream(state(), stream, true); });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    return call("aclrtSynchronizeStream", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        refuse_capturing_stream(target, "synchronize");
        refuse_waiting_for_own_work(target, "cannot synchronize");
        check(target.synchronize());
    });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return call("aclrtSynchronizeStreamWithTimeout", [&] {
        State& s = state();
        check_timeout(timeout);
        engine::Stream& target = target_stream(s, stream, "stream");
        refuse_capturing_stream(target, "synchronize");
        refuse_waiting_for_own_work(target, "cannot synchronize");
        check(target.synchronize(timeout));
    });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    return call("aclrtStreamQuery", [&] {
        require(status, "status");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        refuse_capturing_stream(target, "query");
        *status = target.idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    });
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
    return call("aclrtStreamGetPriority", [&] {
        require(priority, "priority");
        State& s = state();
        *priority = static_cast<uint32_t>(target_stream(s, stream, "stream").priority());
    });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
    return call("aclrtStreamGetFlags", [&] {
        require(flags, "flags");
        State& s = state();
        *flags = target_stream(s, stream, "stream").flags();
    });
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
    return call("aclrtDeviceGetStreamPriorityRange", [&] {
        require(leastPriority, "leastPriority");
        require(greatestPriority, "greatestPriority");
        state();
        *leastPriority = engine::Stream::least_priority;
        *greatestPriority = engine::Stream::greatest_priority;
    });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    return call("aclrtSetStreamFailureMode", [&] {
        State& s = state();
        if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
            fail(ACL_ERROR_INVALID_PARAM, "mode " + std::to_string(mode) + " is neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE");
        target_stream(s, stream, "stream")
            .set_failure_mode(mode == ACL_STOP_ON_FAILURE ? engine::FailureMode::stop_on_failure
                                                          : engine::FailureMode::continue_on_failure);
    });
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
    return call("aclrtLaunchHostFunc", [&] {
        require(fn, "fn");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        // A stream with a host-function thread (aclrtSubscribeHostFunc) runs it there (callback.cpp).
        if (s.runtime.reports().launch(engine::ReportHub::Channel::host_func, target, fn, args, true)) return;
        target.enqueue(engine::Operation{engine::OpKind::host_func, 0, nullptr, [fn, args](engine::OpRun&) { fn(args); }});
    });
}

}  // extern "C"
