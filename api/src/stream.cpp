// Streams: creation, synchronization, queries, failure mode, and host functions.
#include "api.h"

namespace canopy::api {

engine::Stream& stream_handle(State& state, aclrtStream stream, const char* argument) {
    if (!stream) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    engine::Stream* found = state.streams.find(stream);
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

void destroy_stream(State& state, aclrtStream stream, bool discard) {
    engine::Stream& found = destroyable_stream(state, stream);
    std::shared_ptr<engine::Stream> owned = state.streams.remove(stream);
    // Callbacks waiting for a subscriber run here, so the stream's work can finish.
    state.runtime.reports().forget(found);
    if (discard) found.discard_pending();
    owned.reset();  // waits for what is left
}
}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    return call("aclrtCreateStream", [&] {
        require(stream, "stream");
        State& s = state();
        *stream = s.streams.add(std::make_shared<engine::Stream>(current_context(s), 0, 0));
    });
}

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
    return call("aclrtCreateStreamWithConfig", [&] {
        require(stream, "stream");
        State& s = state();
        constexpr uint32_t known_flags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT |
                                         ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
        if (flag & ~known_flags) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " has unknown bits");
        // Out-of-range priorities are clamped, as CANN does.
        const int clamped = static_cast<int>(std::min<uint32_t>(priority, engine::Stream::least_priority));
        *stream = s.streams.add(std::make_shared<engine::Stream>(current_context(s), clamped, flag));
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
        check(target_stream(s, stream, "stream").synchronize());
    });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return call("aclrtSynchronizeStreamWithTimeout", [&] {
        State& s = state();
        check_timeout(timeout);
        check(target_stream(s, stream, "stream").synchronize(timeout));
    });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
    return call("aclrtStreamQuery", [&] {
        require(status, "status");
        State& s = state();
        *status = target_stream(s, stream, "stream").idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
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
