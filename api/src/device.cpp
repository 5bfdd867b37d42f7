// Devices: aclrtSetDevice / aclrtResetDevice and device-wide queries and synchronization.
#include "api.h"

namespace canopy::api {

namespace {
void check_device_id(State& state, int32_t deviceId) {
    if (deviceId < 0 || deviceId >= state.runtime.device_count()) {
        fail(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId " + std::to_string(deviceId) + " is not in [0, " +
                                                std::to_string(state.runtime.device_count()) + ")");
    }
}

}  // namespace

void drop_device(State& state, int32_t deviceId, bool all) {
    check_device_id(state, deviceId);
    std::lock_guard lock(state.devices_mutex);
    const int left = state.runtime.release_device(deviceId, all);
    if (left < 0) fail(ACL_ERROR_RT_INVALID_DEVICEID, "device " + std::to_string(deviceId) + " is not set");
    if (left > 0) return;
    engine::Device* device = state.runtime.device(deviceId);
    release_device_objects(state, *device);
    state.primary_contexts[static_cast<std::size_t>(deviceId)] = nullptr;
    state.runtime.destroy_device(deviceId);
}

void release_device_objects(State& state, engine::Device& device) {
    // Streams first (each waits for its work), then events, then contexts.
    auto streams = state.streams.remove_if([&](const engine::Stream& s) { return &s.device() == &device; });
    for (auto& stream : streams) state.runtime.reports().forget(*stream);  // before they wait for their work
    streams.clear();
    state.events.remove_if([&](const engine::Event& e) { return &e.device() == &device; });
    state.contexts.remove_if([&](const engine::Context& c) { return &c.device() == &device; });
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
    return call("aclrtSetDevice", [&] {
        State& s = state();
        check_device_id(s, deviceId);
        std::lock_guard lock(s.devices_mutex);
        engine::Device& device = s.runtime.acquire_device(deviceId);
        void*& handle = s.primary_contexts[static_cast<std::size_t>(deviceId)];
        if (!handle) {
            // Owned by the device; the table only names it.
            engine::Context* primary = &device.primary_context();
            handle = s.contexts.add(std::shared_ptr<engine::Context>(primary, [](engine::Context*) {}));
            default_stream_handle(s, *primary);
        }
        set_current_context(handle);
    });
}

aclError aclrtResetDevice(int32_t deviceId) {
    return call("aclrtResetDevice", [&] { drop_device(state(), deviceId, false); });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
    return call("aclrtResetDeviceForce", [&] { drop_device(state(), deviceId, true); });
}

aclError aclrtGetDevice(int32_t* deviceId) {
    return call("aclrtGetDevice", [&] {
        require(deviceId, "deviceId");
        *deviceId = current_context(state()).device().id();
    });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    return call("aclrtGetDeviceCount", [&] {
        require(count, "count");
        *count = static_cast<uint32_t>(state().runtime.device_count());
    });
}

aclError aclrtSynchronizeDevice(void) {
    return call("aclrtSynchronizeDevice", [] { check(current_context(state()).device().synchronize(-1)); });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    return call("aclrtSynchronizeDeviceWithTimeout", [&] {
        State& s = state();
        if (timeout < -1) fail(ACL_ERROR_RT_PARAM_INVALID, "timeout " + std::to_string(timeout) + " is below -1");
        check(current_context(s).device().synchronize(timeout));
    });
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    return call("aclrtGetRunMode", [&] {
        require(runMode, "runMode");
        state();
        // The host program drives the (modelled) device: CANN's ACL_HOST mode.
        *runMode = ACL_HOST;
    });
}

const char* aclrtGetSocName(void) {
    const char* name = nullptr;
    // Canopy models an Atlas A2 (arch 2201) part: 192 KiB UB per core. The part is known before
    // aclInit, as on the device: build scripts ask for it to pick SOC_VERSION.
    call("aclrtGetSocName", [&] { name = "Ascend910B4"; });
    return name;
}

}  // extern "C"
