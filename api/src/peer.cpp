// Peer access between devices. Every device's memory is host memory, so any device could read any
// other's; Canopy still keeps CANN's rule that a copy touching another device's memory needs the
// current device to have enabled access to that device, so that a program missing the call fails
// here as it would on the NPU.
#include "api.h"

namespace canopy::api {

namespace {
void check_device(State& state, int32_t id, const char* argument) {
    if (id < 0 || id >= state.runtime.device_count()) {
        fail(ACL_ERROR_RT_INVALID_DEVICEID, std::string(argument) + " " + std::to_string(id) + " is not in [0, " +
                                                std::to_string(state.runtime.device_count()) + ")");
    }
}

engine::Device& current_device_for_peer(State& state, int32_t peerDeviceId) {
    check_device(state, peerDeviceId, "peerDeviceId");
    engine::Device& device = current_context(state).device();
    if (device.id() == peerDeviceId)
        fail(ACL_ERROR_INVALID_PARAM, "peerDeviceId " + std::to_string(peerDeviceId) + " is the current device");
    return device;
}
}  // namespace

void check_peer_access(State& state, const engine::Device* dst, const engine::Device* src) {
    if (!dst && !src) return;
    const engine::Device& current = current_context(state).device();
    for (const engine::Device* other : {dst, src}) {
        if (!other || other == &current || current.peer_access(other->id())) continue;
        fail(ACL_ERROR_RT_NO_PERMISSION,
             std::string(other == dst ? "dst" : "src") + " is memory of device " + std::to_string(other->id()) +
                 " but the current device is " + std::to_string(current.id()) +
                 ", which has not enabled access to it (aclrtDeviceEnablePeerAccess(" + std::to_string(other->id()) +
                 ", 0) on device " + std::to_string(current.id()) + ")");
    }
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
    return call("aclrtDeviceCanAccessPeer", [&] {
        require(canAccessPeer, "canAccessPeer");
        State& s = state_or_implicit_init();
        check_device(s, deviceId, "deviceId");
        check_device(s, peerDeviceId, "peerDeviceId");
        if (deviceId == peerDeviceId)
            fail(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both " + std::to_string(deviceId));
        // All devices share the host's memory: any pair can exchange data.
        *canAccessPeer = 1;
    });
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
    return call("aclrtDeviceEnablePeerAccess", [&] {
        State& s = state();
        if (flags != 0) fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " must be 0");
        current_device_for_peer(s, peerDeviceId).set_peer_access(peerDeviceId, true);
    });
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
    return call("aclrtDeviceDisablePeerAccess", [&] {
        State& s = state();
        engine::Device& device = current_device_for_peer(s, peerDeviceId);
        if (!device.peer_access(peerDeviceId)) {
            fail(ACL_ERROR_INVALID_PARAM, "device " + std::to_string(device.id()) + " has not enabled access to device " +
                                              std::to_string(peerDeviceId));
        }
        device.set_peer_access(peerDeviceId, false);
    });
}

}  // extern "C"
