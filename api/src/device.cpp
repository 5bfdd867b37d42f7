// Devices: aclrtSetDevice / aclrtResetDevice, device-wide queries and synchronization, device
// attributes, status, utilization and resource limits.
#include <unistd.h>

#include "api.h"
#include "canopy/engine/wait_list.h"
#include "canopy/soc.h"

namespace canopy::api {

namespace {
void check_device_id(State& state, int32_t deviceId) {
    if (deviceId < 0 || deviceId >= state.runtime.device_count()) {
        fail(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId " + std::to_string(deviceId) + " is not in [0, " +
                                                std::to_string(state.runtime.device_count()) + ")");
    }
}

std::uintptr_t device_key(State& state, int32_t deviceId) {
    return reinterpret_cast<std::uintptr_t>(&state.set_devices[static_cast<std::size_t>(deviceId)]);
}
}  // namespace

void add_device_reference(State& state, int32_t deviceId, engine::Device& device) {
    state.runtime.add_reference(deviceId);
    state.set_devices[static_cast<std::size_t>(deviceId)].store(&device, std::memory_order_release);
}

engine::Device* reach_device(State& state, int32_t deviceId) {
    check_device_id(state, deviceId);
    pins::pin(pins::mine(), device_key(state, deviceId));
    return state.set_devices[static_cast<std::size_t>(deviceId)].load(pins::recheck_order());
}

void drop_device(State& state, int32_t deviceId, bool all) {
    check_device_id(state, deviceId);
    std::lock_guard lock(state.devices_mutex);
    // The last reference destroys the device, which waits for its work.
    if (engine::Device* device = state.runtime.device(deviceId);
        device && (all || state.runtime.device_references(deviceId) == 1)) {
        refuse_waiting_for_own_work(*device, "cannot reset");
    }
    const int left = state.runtime.release_device(deviceId, all);
    if (left < 0) fail(ACL_ERROR_RT_INVALID_DEVICEID, "device " + std::to_string(deviceId) + " is not set");
    if (left > 0) return;
    engine::Device* device = state.runtime.device(deviceId);
    release_device_objects(state, *device, "the device was reset");
    state.primary_contexts[static_cast<std::size_t>(deviceId)] = nullptr;
    state.runtime.destroy_device(deviceId);
    engine::WaitList::end_device_reset(device);
}

void release_device_objects(State& state, engine::Device& device, const char* ending) {
    // Calls naming the device by its id no longer find it; those that did are waited for.
    state.set_devices[static_cast<std::size_t>(device.id())].store(nullptr, std::memory_order_seq_cst);
    pins::barrier();
    pins::await_unpinned(device_key(state, device.id()));
    for (void* handle : stream_handles(state, [&](const engine::Stream& s) { return &s.device() == &device; })) {
        notify_stream_state(handle, ACL_RT_STREAM_STATE_DESTROY_PRE);
        // Callbacks waiting for a subscriber run here, before the streams wait for their work (and
        // for the calls of other threads synchronizing them).
        // Not pinned past this: a thread destroying one of these streams holds its context's pin
        // until the stream is gone, and the reset waits for that pin below.
        const PinScope only_here;
        if (engine::Stream* stream = state.streams.reach(handle)) {
            state.runtime.reports().forget(*stream);
            stream->release_recorder();
        }
    }
    // Waits for notifies or values that will not come any more fail, so that the streams can go.
    engine::WaitList::begin_device_reset(device, ACL_ERROR_RT_STREAM_ABORT, std::string(ending) + " while the wait was pending");
    // Calls of other threads still using the device's objects are waited for (none of them holds a
    // pin while it waits for the devices' lock that the caller holds: see aclrtDestroyContext).
    // The contexts close first, so that no stream or event is made on the device from here on;
    // they go last, after what was made in them.
    auto contexts = state.contexts.remove_if([&](const engine::Context& c) { return &c.device() == &device; });
    state.streams.remove_if([&](const engine::Stream& s) { return &s.device() == &device; }).clear();
    state.events.remove_if([&](const engine::Event& e) { return &e.device() == &device; });
    contexts.clear();
    // Streams destroyed with aclrtDestroyStreamForce finish before the device's memory goes.
    device.primary_context().drain_retired();
    // After the contexts: a call that reached the device through one may have made the area until then.
    forget_hardware_sync_area(state, device.id());
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
    return call("aclrtSetDevice", [&] {
        State& s = state_or_implicit_init();
        check_device_id(s, deviceId);
        const StreamStateCallbacks callbacks;
        std::lock_guard lock(s.devices_mutex);
        engine::Device& device = s.runtime.create_device(deviceId);
        void*& handle = s.primary_contexts[static_cast<std::size_t>(deviceId)];
        if (!handle) {
            // Owned by the device; the table only names it.
            engine::Context* primary = &device.primary_context();
            void* context = s.contexts.add(std::shared_ptr<engine::Context>(primary, [](engine::Context*) {}));
            void* stream = default_stream_handle_or_remove(s, *primary, context);
            handle = context;
            callbacks.announce(stream, ACL_RT_STREAM_STATE_CREATE_POST);
        }
        add_device_reference(s, deviceId, device);
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
        *count = static_cast<uint32_t>(state_or_implicit_init().runtime.device_count());
    });
}

aclError aclrtSynchronizeDevice(void) {
    return call("aclrtSynchronizeDevice", [] {
        engine::Device& device = current_context(state()).device();
        refuse_device_sync_during_capture(device);
        refuse_waiting_for_own_work(device, "cannot synchronize");
        check(device.synchronize(-1));
    });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    return call("aclrtSynchronizeDeviceWithTimeout", [&] {
        State& s = state();
        if (timeout < -1) fail(ACL_ERROR_RT_PARAM_INVALID, "timeout " + std::to_string(timeout) + " is below -1");
        engine::Device& device = current_context(s).device();
        refuse_device_sync_during_capture(device);
        refuse_waiting_for_own_work(device, "cannot synchronize");
        check(device.synchronize(timeout));
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
    // The modelled SoC (canopy/soc.h). It is known before aclInit, as on the
    // device: build scripts ask for it to pick SOC_VERSION.
    call("aclrtGetSocName", [&] { name = soc::modelled().name; });
    return name;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
    return call("aclrtGetDeviceInfo", [&] {
        require(value, "value");
        State& s = state_or_implicit_init();
        check_device_id(s, static_cast<int32_t>(std::min<uint32_t>(deviceId, INT32_MAX)));
        const engine::RuntimeConfig& config = s.runtime.config();
        switch (raw_value(attr)) {
            case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = 0; break;  // no AI CPU: host functions run on the workers
            case ACL_DEV_ATTR_AICORE_CORE_NUM:
            case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = soc::modelled().cube_cores; break;
            case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = soc::modelled().vector_cores; break;
            case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: *value = static_cast<int64_t>(config.ub_bytes); break;
            case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = static_cast<int64_t>(config.device_memory_bytes); break;
            case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = std::max<long>(0, ::sysconf(_SC_LEVEL2_CACHE_SIZE)); break;
            case ACL_DEV_ATTR_SMP_ID: *value = 0; break;  // every device lives in this process's OS
            case ACL_DEV_ATTR_PHY_CHIP_ID: *value = deviceId; break;
            case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; break;
            case ACL_DEV_ATTR_NPU_ARCH: *value = soc::modelled_part().npu_arch; break;
            case ACL_DEV_ATTR_WARP_SIZE:
            case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
            case ACL_DEV_ATTR_MAX_GRID_DIM_X:
            case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
            case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
            case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
            case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
            case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
            case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
            case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
                fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "attr " + std::to_string(raw_value(attr)) + " describes SIMT vector cores, which " +
                         (&soc::modelled_part() == &soc::atlas_a2
                              ? std::string(soc::modelled().name) + " does not have"
                              : std::string("Canopy does not model (") + soc::modelled().name + " has them)"));
            case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
            case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
            case ACL_DEV_ATTR_SUPER_POD_ID:
            case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
            case ACL_DEV_ATTR_MAINBOARD_ID:
            case ACL_DEV_ATTR_HD_CONNECT_TYPE:
            case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
                fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "attr " + std::to_string(raw_value(attr)) +
                                                           " describes server hardware that a modelled device does not have");
            default: fail(ACL_ERROR_INVALID_PARAM, "attr " + std::to_string(raw_value(attr)) + " is not an aclrtDevAttr");
        }
    });
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
    return call("aclrtQueryDeviceStatus", [&] {
        require(deviceStatus, "deviceStatus");
        State& s = state_or_implicit_init();
        check_device_id(s, deviceId);
        // A kernel fault fails its stream, never the device: a modelled device stays usable.
        *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    });
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
    return call("aclrtGetDeviceUtilizationRate", [&] {
        require(utilizationInfo, "utilizationInfo");
        if (utilizationInfo->utilizationExtend)
            fail(ACL_ERROR_INVALID_PARAM, "utilizationInfo->utilizationExtend is reserved and must be NULL");
        State& s = state_or_implicit_init();
        engine::Device* device = reach_device(s, deviceId);
        // The share of the device's workers running kernel blocks right now; cube and vector work
        // run on the same workers. No AI CPU.
        const int32_t busy = device ? device->busy_percent() : 0;
        const std::size_t total = s.runtime.config().device_memory_bytes;
        utilizationInfo->cubeUtilization = busy;
        utilizationInfo->vectorUtilization = busy;
        utilizationInfo->aicpuUtilization = -1;
        utilizationInfo->memoryUtilization =
            device ? static_cast<int32_t>(device->memory_used() * 100 / std::max<std::size_t>(total, 1)) : 0;
    });
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
    return call("aclrtDeviceGetBareTgid", [&] {
        require(pid, "pid");
        *pid = static_cast<int32_t>(::getpid());
    });
}

}  // extern "C"

namespace canopy::api {
namespace {
engine::CoreKind core_kind(const aclrtDevResLimitType& type) {
    switch (raw_value(type)) {
        case ACL_RT_DEV_RES_CUBE_CORE: return engine::CoreKind::cube;
        case ACL_RT_DEV_RES_VECTOR_CORE: return engine::CoreKind::vector;
        default: fail(ACL_ERROR_INVALID_PARAM, "type " + std::to_string(raw_value(type)) + " is not an aclrtDevResLimitType");
    }
}

uint32_t hardware_cores(engine::CoreKind kind) {
    return kind == engine::CoreKind::cube ? soc::modelled().cube_cores : soc::modelled().vector_cores;
}

uint32_t effective_limit(const engine::Device& device, engine::CoreKind kind) {
    const uint32_t limit = device.core_limit(kind);
    return limit ? limit : hardware_cores(kind);
}

void check_limit(engine::CoreKind kind, uint32_t value) {
    if (value == 0 || value > hardware_cores(kind)) {
        fail(ACL_ERROR_INVALID_PARAM, "value " + std::to_string(value) + " is not in [1, " +
                                          std::to_string(hardware_cores(kind)) + "], the cores of " +
                                          soc::modelled().name);
    }
}

// A stream's limit of a kind, else its device's, else the hardware's (CANN's order of priority).
uint32_t effective_limit(const engine::Stream& stream, engine::CoreKind kind) {
    const uint32_t limit = stream.core_limit(kind);
    return limit ? limit : effective_limit(stream.device(), kind);
}

// aclrtUseStreamResInCurrentThread: the stream whose limits the thread's queries report. Kept as
// the handle, looked up again at each query, so that a destroyed stream is simply not found.
struct UsedStream {
    bool set = false;
    void* handle = nullptr;  // nullptr: the default stream of the thread's current context
};
thread_local UsedStream used_stream;

engine::Device& set_device(State& state, int32_t deviceId) {
    engine::Device* device = reach_device(state, deviceId);
    if (!device) fail(ACL_ERROR_RT_INVALID_DEVICEID, "device " + std::to_string(deviceId) + " is not set: call aclrtSetDevice first");
    return *device;
}
}  // namespace
}  // namespace canopy::api

extern "C" {

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
    return call("aclrtGetDeviceResLimit", [&] {
        require(value, "value");
        const engine::CoreKind kind = core_kind(type);
        *value = effective_limit(set_device(state(), deviceId), kind);
    });
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
    return call("aclrtSetDeviceResLimit", [&] {
        const engine::CoreKind kind = core_kind(type);
        engine::Device& device = set_device(state(), deviceId);
        check_limit(kind, value);
        device.set_core_limit(kind, value);
    });
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
    return call("aclrtResetDeviceResLimit", [&] {
        engine::Device& device = set_device(state(), deviceId);
        device.set_core_limit(engine::CoreKind::cube, 0);
        device.set_core_limit(engine::CoreKind::vector, 0);
    });
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
    return call("aclrtGetResInCurrentThread", [&] {
        require(value, "value");
        const engine::CoreKind kind = core_kind(type);
        State& s = state();
        engine::Context& context = current_context(s);
        const engine::Stream* used = nullptr;
        if (used_stream.set) used = used_stream.handle ? s.streams.reach(used_stream.handle) : &context.default_stream();
        *value = used ? effective_limit(*used, kind) : effective_limit(context.device(), kind);
    });
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
    return call("aclrtGetStreamResLimit", [&] {
        require(value, "value");
        const engine::CoreKind kind = core_kind(type);
        State& s = state();
        *value = effective_limit(target_stream(s, stream, "stream"), kind);
    });
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
    return call("aclrtSetStreamResLimit", [&] {
        const engine::CoreKind kind = core_kind(type);
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        check_limit(kind, value);
        // Launches enqueued from now on run at most this many cores of the kind at once.
        target.set_core_limit(kind, value);
    });
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
    return call("aclrtResetStreamResLimit", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        target.set_core_limit(engine::CoreKind::cube, 0);
        target.set_core_limit(engine::CoreKind::vector, 0);
    });
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
    return call("aclrtUseStreamResInCurrentThread", [&] {
        State& s = state();
        target_stream(s, stream, "stream");
        used_stream = UsedStream{true, stream};
    });
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
    return call("aclrtUnuseStreamResInCurrentThread", [&] {
        State& s = state();
        target_stream(s, stream, "stream");
        used_stream = UsedStream{};
    });
}

}  // extern "C"
