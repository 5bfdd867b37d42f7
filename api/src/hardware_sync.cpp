// aclrtGetHardwareSyncAddr: the address of the current device's cube / vector synchronization area,
// which programs (catlass's examples) hand to their kernels for AscendC::SetSyncBaseAddr. On the NPU it
// is the device's C2C control registers (CANN's rtsGetHardwareSyncAddr maps them once per device); here
// it is device memory of the device, zeroed, made on the first request and the same for every later one
// until the device is reset, so that kernels may keep their synchronization state in it. The runtime
// owns it: aclrtFree refuses it, and the reset frees it with the device's other allocations.
#include <cstring>
#include <mutex>

#include "api.h"

namespace canopy::api {
namespace {
// 64 KiB: a cache line of flags for each of the 72 cores of the largest modelled part fits many times.
constexpr std::size_t hardware_sync_bytes = 64 * 1024;
}  // namespace

bool is_hardware_sync_area(State& state, const void* pointer) {
    const std::lock_guard<std::mutex> lock(state.hardware_sync_mutex);
    for (const void* area : state.hardware_sync_areas) {
        if (area != nullptr && area == pointer) return true;
    }
    return false;
}

void forget_hardware_sync_area(State& state, int32_t device_id) {
    const std::lock_guard<std::mutex> lock(state.hardware_sync_mutex);
    state.hardware_sync_areas[static_cast<std::size_t>(device_id)] = nullptr;
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtGetHardwareSyncAddr(void** addr) {
    return call("aclrtGetHardwareSyncAddr", [&] {
        if (addr == nullptr) fail(ACL_ERROR_RT_PARAM_INVALID, "addr is NULL");
        State& s = state();
        engine::Device& device = current_context(s).device();
        const std::lock_guard<std::mutex> lock(s.hardware_sync_mutex);
        void*& area = s.hardware_sync_areas[static_cast<std::size_t>(device.id())];
        if (area == nullptr) {
            void* made = s.runtime.memory().allocate(hardware_sync_bytes, engine::MemoryKind::device, &device);
            if (made == nullptr) {
                fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate the " + std::to_string(hardware_sync_bytes) +
                                                         " bytes of device " + std::to_string(device.id()) +
                                                         "'s hardware sync area");
            }
            std::memset(made, 0, hardware_sync_bytes);
            area = made;
        }
        *addr = area;
    });
}

}  // extern "C"
