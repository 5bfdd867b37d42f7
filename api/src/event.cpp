// Events: record, cross-stream wait, synchronize, query, timing.
#include "api.h"
#include "canopy/engine/capture.h"

namespace canopy::api {

namespace {
template <class Found>
Found& live_event(Found* found, aclrtEvent event, const char* argument) {
    if (!event) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
    if (!found) fail(ACL_ERROR_RT_INVALID_HANDLE, std::string(argument) + " " + describe(event) + " is not a live event");
    return *found;
}

// A synchronize holds a reference rather than a pin: destroying an event does not wait for the
// threads waiting for it (they return when the record completes).
std::shared_ptr<engine::Event> event_to_wait_for(State& state, aclrtEvent event) {
    std::shared_ptr<engine::Event> shared = event ? state.events.share(event) : nullptr;
    live_event(shared.get(), event, "event");
    return shared;
}
}  // namespace

engine::Event& event_handle(State& state, aclrtEvent event, const char* argument) {
    return live_event(event ? state.events.reach(event) : nullptr, event, argument);
}

namespace {
constexpr uint32_t known_event_flags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                       ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

// aclrtCreateEvent's events are timed; those created with a flag only with ACL_EVENT_TIME_LINE, as
// CANN documents (timestamps cost the event calls performance).
void create_event(aclrtEvent* event, uint32_t flag, bool timed) {
    require(event, "event");
    State& s = state();
    if (flag & ~known_event_flags) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " has unknown bits");
    *event = s.events.add(std::make_shared<engine::Event>(current_context(s).device(), flag, timed));
}

std::int64_t completed_timestamp(engine::Event& event, const char* argument) {
    std::int64_t ns = 0;
    if (!event.timed()) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) +
                                          " was created without ACL_EVENT_TIME_LINE, so it records no timestamp");
    }
    if (!event.recorded()) fail(ACL_ERROR_RT_INTERNAL_ERROR, std::string(argument) + " has never been recorded");
    if (!event.timestamp_ns(ns)) fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE, std::string(argument) + " has not completed yet");
    return ns;
}
}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
    return call("aclrtCreateEvent", [&] { create_event(event, ACL_EVENT_SYNC, true); });
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    return call("aclrtCreateEventWithFlag", [&] { create_event(event, flag, (flag & ACL_EVENT_TIME_LINE) != 0); });
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
    return call("aclrtCreateEventExWithFlag", [&] { create_event(event, flag, (flag & ACL_EVENT_TIME_LINE) != 0); });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    return call("aclrtDestroyEvent", [&] {
        State& s = state();
        event_handle(s, event, "event");
        // Pending records keep the engine object alive until they have run.
        s.events.remove(event);
    });
}

namespace {
void record_event(aclrtEvent event, aclrtStream stream, bool external) {
    State& s = state();
    engine::Event& target = event_handle(s, event, "event");
    engine::Stream& recording = target_stream(s, stream, "stream");
    if ((recording.recorder() || engine::captures_running()) && engine::capture_record(recording, target, external)) return;
    target.record(recording);
}

void wait_event(aclrtStream stream, aclrtEvent event, bool external, uint32_t timeout = 0) {
    State& s = state();
    engine::Event& target = event_handle(s, event, "event");
    engine::Stream& waiting = target_stream(s, stream, "stream");
    if ((waiting.recorder() || engine::captures_running()) && engine::capture_wait(waiting, target, external, timeout)) return;
    if (timeout != 0) {
        fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "timeout " + std::to_string(timeout) +
                                                   ": Canopy's event waits outside a capture have no time limit; pass 0");
    }
    target.wait(waiting);
}
}  // namespace

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    return call("aclrtRecordEvent", [&] { record_event(event, stream, false); });
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
    return call("aclrtRecordEventWithFlag", [&] {
        if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) +
                                              " is neither ACL_EVENT_RECORD_DEFAULT nor ACL_EVENT_RECORD_EXTERNAL");
        }
        // Outside a capture an external record is an ordinary one.
        record_event(event, stream, flag == ACL_EVENT_RECORD_EXTERNAL);
    });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    return call("aclrtResetEvent", [&] {
        State& s = state();
        engine::Event& target = event_handle(s, event, "event");
        engine::Stream& resetting = target_stream(s, stream, "stream");
        if (resetting.recorder() && engine::capture_reset(resetting, target)) return;
        target.reset(resetting);
    });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    return call("aclrtStreamWaitEvent", [&] { wait_event(stream, event, false); });
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
    return call("aclrtStreamWaitEventWithFlag", [&] {
        if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) +
                                              " is neither ACL_EVENT_WAIT_DEFAULT nor ACL_EVENT_WAIT_EXTERNAL");
        }
        if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
            fail(ACL_ERROR_INVALID_PARAM, "timeout " + std::to_string(timeout) + " must be 0 with ACL_EVENT_WAIT_EXTERNAL");
        wait_event(stream, event, flag == ACL_EVENT_WAIT_EXTERNAL, timeout);
    });
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    return call("aclrtSynchronizeEvent", [&] { check(event_to_wait_for(state(), event)->synchronize(-1)); });
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    return call("aclrtSynchronizeEventWithTimeout", [&] {
        const std::shared_ptr<engine::Event> target = event_to_wait_for(state(), event);
        if (timeout < -1) fail(ACL_ERROR_RT_PARAM_INVALID, "timeout " + std::to_string(timeout) + " is below -1");
        check(target->synchronize(timeout));
    });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    return call("aclrtQueryEventStatus", [&] {
        require(status, "status");
        *status = event_handle(state(), event, "event").complete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                                                   : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    });
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
    return call("aclrtQueryEventWaitStatus", [&] {
        require(status, "status");
        engine::Event& target = event_handle(state(), event, "event");
        // A wait on the event is satisfied once its most recent record has run (or if there is none).
        *status = (!target.recorded() || target.complete()) ? ACL_EVENT_WAIT_STATUS_COMPLETE
                                                            : ACL_EVENT_WAIT_STATUS_NOT_READY;
    });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    return call("aclrtEventElapsedTime", [&] {
        require(ms, "ms");
        State& s = state();
        const std::int64_t start = completed_timestamp(event_handle(s, startEvent, "startEvent"), "startEvent");
        const std::int64_t end = completed_timestamp(event_handle(s, endEvent, "endEvent"), "endEvent");
        *ms = static_cast<float>(static_cast<double>(end - start) / 1e6);
    });
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
    return call("aclrtEventGetTimestamp", [&] {
        require(timestamp, "timestamp");
        // Microseconds of the steady clock.
        *timestamp = static_cast<uint64_t>(completed_timestamp(event_handle(state(), event, "event"), "event") / 1000);
    });
}

}  // extern "C"
