// Contexts: the current context is per thread; each context has its own default stream.
#include "api.h"

namespace canopy::api {

namespace {
// Read by nearly every call: initial-exec TLS, as the pins' record (call_pins.h).
thread_local void* current __attribute__((tls_model("initial-exec"))) = nullptr;
}

void* current_context_handle() { return current; }
void set_current_context(void* handle) { current = handle; }

engine::Context& current_context(State& state) {
    engine::Context* context = state.contexts.reach(current);
    if (!context) {
        fail(ACL_ERROR_RT_CONTEXT_NULL,
             "the calling thread has no current context: call aclrtSetDevice or aclrtSetCurrentContext first");
    }
    return *context;
}

void* default_stream_handle(State& state, engine::Context& context) {
    engine::Stream* stream = &context.default_stream();
    if (void* handle = state.streams.handle_of(stream)) return handle;
    // Owned by its context; the table only names it.
    return state.streams.add(std::shared_ptr<engine::Stream>(stream, [](engine::Stream*) {}));
}

void* default_stream_handle_or_remove(State& state, engine::Context& context, void* context_handle) {
    try {
        return default_stream_handle(state, context);
    } catch (const std::bad_alloc&) {
        state.contexts.remove(context_handle);
        throw;
    }
}

namespace {
// Destroys the context's streams, then the context; calls of other threads using them return first.
void destroy_context(State& s, aclrtContext context, engine::Context& target) {
    const auto handles = stream_handles(s, [&](const engine::Stream& st) { return &st.context() == &target; });
    // The streams are not kept pinned: a thread destroying one of them holds the context's pin
    // until the stream is gone, and the context's removal waits for that pin.
    for (void* handle : handles) {
        const PinScope only_here;
        if (engine::Stream* stream = s.streams.reach(handle)) refuse_waiting_for_own_work(*stream, "cannot destroy the context of");
    }
    for (void* handle : handles) {
        notify_stream_state(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
        // Before the streams wait for their work (and for the calls of other threads using them).
        const PinScope only_here;
        if (engine::Stream* stream = s.streams.reach(handle)) {
            s.runtime.reports().forget(*stream);
            stream->release_recorder();
        }
    }
    // Closed first, so that no stream is made in it from here on; freed after its streams.
    const std::shared_ptr<engine::Context> owned = s.contexts.remove(context);
    if (!owned) fail(ACL_ERROR_RT_INVALID_HANDLE, "context " + describe(context) + " was destroyed by another thread meanwhile");
    s.streams.remove_if([&](const engine::Stream& st) { return &st.context() == &target; }).clear();
}
}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    return call("aclrtCreateContext", [&] {
        require(context, "context");
        State& s = state_or_implicit_init();
        if (deviceId < 0 || deviceId >= s.runtime.device_count()) {
            fail(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId " + std::to_string(deviceId) + " is not in [0, " +
                                                    std::to_string(s.runtime.device_count()) + ")");
        }
        const StreamStateCallbacks callbacks;
        std::lock_guard lock(s.devices_mutex);
        engine::Device& device = s.runtime.create_device(deviceId);
        auto created = std::make_shared<engine::Context>(device);
        engine::Context& raw = *created;
        void* handle = s.contexts.add(std::move(created));
        void* stream = default_stream_handle_or_remove(s, raw, handle);
        // A context holds a reference on its device, as aclrtSetDevice does.
        add_device_reference(s, deviceId, device);
        callbacks.announce(stream, ACL_RT_STREAM_STATE_CREATE_POST);
        set_current_context(handle);
        *context = handle;
    });
}

aclError aclrtDestroyContext(aclrtContext context) {
    return call("aclrtDestroyContext", [&] {
        State& s = state();
        if (!context) fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
        // No pin may be held while this call waits for the devices' lock: a reset holding it waits
        // for the calls that pinned the device's objects.
        {
            std::lock_guard lock(s.devices_mutex);
            for (std::size_t id = 0; id < s.primary_contexts.size(); ++id) {
                if (s.primary_contexts[id] == context) {
                    fail(ACL_ERROR_INVALID_PARAM, "context " + describe(context) + " is the default context of device " +
                                                      std::to_string(id) + ": aclrtResetDevice releases it");
                }
            }
        }
        int device_id = 0;
        {
            const PinScope pins;  // withdrawn before drop_device takes the devices' lock
            engine::Context* target = s.contexts.reach(context);
            if (!target) fail(ACL_ERROR_RT_INVALID_HANDLE, "context " + describe(context) + " is not a live context");
            device_id = target->device().id();
            destroy_context(s, context, *target);
        }
        if (current_context_handle() == context) set_current_context(nullptr);
        drop_device(s, device_id, false);
    });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    return call("aclrtSetCurrentContext", [&] {
        State& s = state();
        if (!context) fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
        if (!s.contexts.reach(context))
            fail(ACL_ERROR_RT_INVALID_HANDLE, "context " + describe(context) + " is not a live context");
        set_current_context(context);
    });
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
    return call("aclrtGetCurrentContext", [&] {
        require(context, "context");
        current_context(state());
        *context = current_context_handle();
    });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
    return call("aclrtCtxGetCurrentDefaultStream", [&] {
        require(stream, "stream");
        State& s = state();
        *stream = default_stream_handle(s, current_context(s));
    });
}

}  // extern "C"
