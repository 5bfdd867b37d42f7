// Registered host memory (aclrtHostRegister, aclrtHostRegisterV2): on the NPU the driver maps a
// host range into the device's address space and hands out a device address for kernels to use
// (zero copy). On a CPU the host address already is that address, so a mapped registration hands
// back the host pointer itself; what the runtime keeps is the bookkeeping CANN checks: which
// ranges are registered, how, and that they are unregistered exactly once.
#include <map>

#include "api.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"

namespace canopy::api {

namespace {

struct Registration {
    std::size_t size;
    bool mapped;
};

// Registrations of the process, by base address.
struct Registrations {
    std::mutex mutex;
    std::map<std::uintptr_t, Registration> ranges;
};

Registrations& registrations() {
    static Registrations table;
    return table;
}

void register_range(void* ptr, std::uint64_t size, bool mapped) {
    const auto base = reinterpret_cast<std::uintptr_t>(ptr);
    std::size_t end;
    if (!engine::detail::checked_add(base, size, end))
        fail(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " wraps the address space");
    Registrations& table = registrations();
    std::lock_guard lock(table.mutex);
    // Overlap with the registration at or below base, or with one starting inside the range.
    auto next = table.ranges.lower_bound(base);
    const bool overlaps_next = next != table.ranges.end() && next->first < base + size;
    const bool overlaps_previous = next != table.ranges.begin() && std::prev(next)->first + std::prev(next)->second.size > base;
    if (overlaps_next || overlaps_previous) {
        fail(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
             "ptr " + describe(ptr) + ": the range of " + std::to_string(size) + " bytes overlaps a registered range");
    }
    table.ranges.emplace(base, Registration{static_cast<std::size_t>(size), mapped});
}

void check_host_range(State& state, void* ptr, std::uint64_t size) {
    require(ptr, "ptr");
    if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
    const std::optional<engine::Allocation> allocation = allocation_of(state, ptr, "ptr");
    if (allocation && allocation->kind == engine::MemoryKind::device)
        fail(ACL_ERROR_INVALID_PARAM, "ptr " + describe(ptr) + " is device memory, not host memory");
}

}  // namespace

bool registered_host_range(const void* pointer, std::size_t count) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    Registrations& table = registrations();
    std::lock_guard lock(table.mutex);
    auto it = table.ranges.upper_bound(address);
    if (it == table.ranges.begin()) return false;
    --it;
    const std::uintptr_t offset = address - it->first;
    return offset < it->second.size && count <= it->second.size - offset;
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
    return call("aclrtHostRegister", [&] {
        require(devPtr, "devPtr");
        State& s = state();
        check_host_range(s, ptr, size);
        const auto kind = raw_value(type);
        if (kind == ACL_HOST_REGISTER_IOMEMORY || kind == ACL_HOST_REGISTER_READONLY) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "type " + std::to_string(kind) +
                                                       ": ACL_HOST_REGISTER_IOMEMORY and ACL_HOST_REGISTER_READONLY are reserved");
        }
        if (kind != ACL_HOST_REGISTER_MAPPED) fail(ACL_ERROR_INVALID_PARAM, "type " + std::to_string(kind) + " is not an aclrtHostRegisterType");
        register_range(ptr, size, true);
        *devPtr = ptr;
    });
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
    return call("aclrtHostRegisterV2", [&] {
        State& s = state();
        check_host_range(s, ptr, size);
        constexpr std::uint64_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
        if (flag == 0 || (flag & ~known) != 0)
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " is not a combination of ACL_HOST_REG_* flags");
        if (flag & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "flag " + std::to_string(flag) +
                                                       ": ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved");
        }
        const std::optional<engine::Allocation> allocation = s.runtime.memory().find(ptr);
        if ((flag & ACL_HOST_REG_PINNED) && allocation && allocation->kind == engine::MemoryKind::host_pinned) {
            fail(ACL_ERROR_INVALID_PARAM, "flag ACL_HOST_REG_PINNED: ptr " + describe(ptr) +
                                              " is already page-locked memory from aclrtMallocHost");
        }
        register_range(ptr, size, (flag & ACL_HOST_REG_MAPPED) != 0);
    });
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
    return call("aclrtHostGetDevicePointer", [&] {
        require(pHost, "pHost");
        require(pDevice, "pDevice");
        if (flag != 0) fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " must be 0 (reserved)");
        state();
        Registrations& table = registrations();
        std::lock_guard lock(table.mutex);
        const auto address = reinterpret_cast<std::uintptr_t>(pHost);
        auto it = table.ranges.upper_bound(address);
        if (it == table.ranges.begin() || std::prev(it)->first + std::prev(it)->second.size <= address)
            fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "pHost " + describe(pHost) + " is not in a registered host range");
        if (!std::prev(it)->second.mapped) {
            fail(ACL_ERROR_INVALID_PARAM, "pHost " + describe(pHost) + " was registered without ACL_HOST_REG_MAPPED");
        }
        *pDevice = pHost;  // the CPU addresses host memory directly
    });
}

aclError aclrtHostUnregister(void* ptr) {
    return call("aclrtHostUnregister", [&] {
        require(ptr, "ptr");
        state();
        Registrations& table = registrations();
        std::lock_guard lock(table.mutex);
        if (table.ranges.erase(reinterpret_cast<std::uintptr_t>(ptr)) == 0)
            fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "ptr " + describe(ptr) + " is not the start of a registered host range");
    });
}

}  // extern "C"
