// Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem, ...) and the
// sharing of physical memory between processes by shareable handles. The mechanisms are the
// engine's (canopy/engine/virtual_memory.h, MemoryRegistry in memory.h); here are the checks of
// CANN's arguments and the aclrtDrvMemHandle handles.
#include <cstring>
#include <optional>
#include <string>

#include "api.h"
#include "canopy/engine/virtual_memory.h"

namespace canopy::api {
namespace {

using engine::vmm_granularity;

void check_device_location(State& state, const aclrtMemLocation& location, const char* argument) {
    if (raw_value(location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".type " + std::to_string(raw_value(location.type)) +
                                          " is not ACL_MEM_LOCATION_TYPE_DEVICE (the only location of physical memory)");
    }
    if (location.id >= static_cast<uint32_t>(state.runtime.device_count())) {
        fail(ACL_ERROR_RT_INVALID_DEVICEID, std::string(argument) + ".id " + std::to_string(location.id) +
                                                " is not in [0, " + std::to_string(state.runtime.device_count()) + ")");
    }
}

void check_prop(State& state, const aclrtPhysicalMemProp* prop) {
    require(prop, "prop");
    const auto handle_type = raw_value(prop->handleType);
    if (handle_type != ACL_MEM_HANDLE_TYPE_NONE && handle_type != ACL_MEM_HANDLE_TYPE_POSIX)
        fail(ACL_ERROR_INVALID_PARAM, "prop->handleType " + std::to_string(handle_type) + " is not supported");
    if (raw_value(prop->allocationType) != ACL_MEM_ALLOCATION_TYPE_PINNED)
        fail(ACL_ERROR_INVALID_PARAM, "prop->allocationType " + std::to_string(raw_value(prop->allocationType)) +
                                          " is not ACL_MEM_ALLOCATION_TYPE_PINNED");
    const auto attr = raw_value(prop->memAttr);
    if (attr < ACL_DDR_MEM || attr > ACL_MEM_P2P_HUGE1G)
        fail(ACL_ERROR_INVALID_PARAM, "prop->memAttr " + std::to_string(attr) + " is not an aclrtMemAttr");
    check_device_location(state, prop->location, "prop->location");
}

void check_granular(std::size_t value, const char* argument) {
    if (value % vmm_granularity != 0) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + std::to_string(value) +
                                          " is not a multiple of the allocation granularity (" +
                                          std::to_string(vmm_granularity) + ", aclrtMemGetAllocationGranularity)");
    }
}

std::shared_ptr<engine::PhysicalMemory> physical(State& state, aclrtDrvMemHandle handle) {
    require(handle, "handle");
    std::shared_ptr<engine::PhysicalMemory> memory = state.physical_memory.share(handle);
    if (!memory) {
        fail(ACL_ERROR_RT_INVALID_HANDLE,
             "handle " + describe(handle) + " is not physical memory of aclrtMallocPhysical or an import (freed?)");
    }
    return memory;
}

}  // namespace
}  // namespace canopy::api

using namespace canopy::api;
namespace engine = canopy::engine;

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) {
    return call("aclrtMemGetAllocationGranularity", [&] {
        State& s = state_or_implicit_init();
        check_prop(s, prop);
        require(granularity, "granularity");
        const auto value = raw_value(option);
        if (value != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && value != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
            fail(ACL_ERROR_INVALID_PARAM, "option " + std::to_string(value) + " is not an aclrtMemGranularityOptions");
        *granularity = vmm_granularity;
    });
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
    return call("aclrtReserveMemAddress", [&] {
        State& s = state_or_implicit_init();
        require(virPtr, "virPtr");
        if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
        check_granular(size, "size");
        if (alignment != 0 && (alignment & (alignment - 1)) != 0)
            fail(ACL_ERROR_INVALID_PARAM, "alignment " + std::to_string(alignment) + " is not a power of two");
        if (expectPtr != nullptr)
            fail(ACL_ERROR_INVALID_PARAM, "expectPtr " + describe(expectPtr) + " must be NULL (a fixed address is not supported)");
        if (flags > 1)
            fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " is neither 0 (normal pages) nor 1 (huge pages)");
        *virPtr = s.runtime.memory().reserve(size, alignment);
    });
}

aclError aclrtReleaseMemAddress(void* virPtr) {
    return call("aclrtReleaseMemAddress", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        s.runtime.memory().release_reservation(virPtr);
    });
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop, uint64_t flags) {
    return call("aclrtMallocPhysical", [&] {
        State& s = state_or_implicit_init();
        require(handle, "handle");
        check_prop(s, prop);
        if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
        check_granular(size, "size");
        if (size > s.runtime.config().device_memory_bytes) {
            fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "size " + std::to_string(size) + " is more than the device's memory (" +
                                                     std::to_string(s.runtime.config().device_memory_bytes) + " bytes)");
        }
        if (flags != 0) fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " must be 0");
        *handle = s.physical_memory.add(engine::PhysicalMemory::create(size, static_cast<int>(prop->location.id)));
    });
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
    return call("aclrtFreePhysical", [&] {
        State& s = state();
        std::shared_ptr<engine::PhysicalMemory> memory = physical(s, handle);
        s.physical_memory.remove(handle);
        // Its shareable handles stop resolving; mappings keep the memory until they are unmapped.
        engine::shareable::withdraw(*memory);
    });
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
    return call("aclrtMapMem", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        std::shared_ptr<engine::PhysicalMemory> memory = physical(s, handle);
        if (flags != 0) fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " must be 0");
        engine::Device* device = reach_device(s, memory->device_id());
        s.runtime.memory().map(virPtr, size, offset, std::move(memory), device);
    });
}

aclError aclrtUnmapMem(void* virPtr) {
    return call("aclrtUnmapMem", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        s.runtime.memory().unmap(virPtr);
    });
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
    return call("aclrtMemSetAccess", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        require(desc, "desc");
        if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
        check_granular(size, "size");
        if (count == 0) fail(ACL_ERROR_INVALID_PARAM, "count is 0");
        for (size_t i = 0; i < count; ++i) {
            const std::string name = "desc[" + std::to_string(i) + "]";
            const auto flags = raw_value(desc[i].flags);
            if (flags != ACL_RT_MEM_ACCESS_FLAGS_NONE && flags != ACL_RT_MEM_ACCESS_FLAGS_READ &&
                flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
                fail(ACL_ERROR_INVALID_PARAM, name + ".flags " + std::to_string(flags) + " is not an aclrtMemAccessFlags");
            check_device_location(s, desc[i].location, (name + ".location").c_str());
        }
        for (size_t i = 0; i < count; ++i) {
            s.runtime.memory().set_access(virPtr, size, static_cast<int>(desc[i].location.id),
                                          static_cast<uint64_t>(raw_value(desc[i].flags)));
        }
    });
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
    return call("aclrtMemGetAccess", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        require(location, "location");
        require(flag, "flag");
        check_device_location(s, *location, "location");
        *flag = s.runtime.memory().access_of(virPtr, static_cast<int>(location->id));
    });
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
    return call("aclrtMemRetainAllocationHandle", [&] {
        State& s = state();
        require(virPtr, "virPtr");
        require(handle, "handle");
        std::shared_ptr<engine::PhysicalMemory> memory = s.runtime.memory().mapped_memory(virPtr);
        if (!memory) fail(ACL_ERROR_INVALID_PARAM, "virPtr " + describe(virPtr) + " is not mapped (aclrtMapMem)");
        void* existing = s.physical_memory.handle_of(memory.get());
        // A handle freed while the memory stays mapped is made anew (to be freed again).
        *handle = existing ? existing : s.physical_memory.add(std::move(memory));
    });
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t* shareableHandle) {
    return call("aclrtMemExportToShareableHandle", [&] {
        State& s = state();
        std::shared_ptr<engine::PhysicalMemory> memory = physical(s, handle);
        const auto type = raw_value(handleType);
        if (type != ACL_MEM_HANDLE_TYPE_NONE && type != ACL_MEM_HANDLE_TYPE_POSIX)
            fail(ACL_ERROR_INVALID_PARAM, "handleType " + std::to_string(type) + " is not supported");
        if (flags != ACL_RT_VMM_EXPORT_FLAG_DEFAULT && flags != ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
            fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) +
                                              " is neither ACL_RT_VMM_EXPORT_FLAG_DEFAULT nor ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION");
        require(shareableHandle, "shareableHandle");
        if (memory->imported())
            fail(ACL_ERROR_INVALID_PARAM, "handle " + describe(handle) + " was imported: only its owner can export it");
        *shareableHandle = engine::shareable::publish(std::move(memory), flags == ACL_RT_VMM_EXPORT_FLAG_DEFAULT);
    });
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
    return call("aclrtMemSetPidToShareableHandle", [&] {
        state();
        require(pid, "pid");
        if (pidNum == 0) fail(ACL_ERROR_INVALID_PARAM, "pidNum is 0");
        for (size_t i = 0; i < pidNum; ++i)
            if (pid[i] <= 0) fail(ACL_ERROR_INVALID_PARAM, "pid[" + std::to_string(i) + "] " + std::to_string(pid[i]) + " is not a process id");
        if (!engine::shareable::allow(shareableHandle, pid, pidNum)) {
            fail(ACL_ERROR_INVALID_PARAM, "shareableHandle " + std::to_string(shareableHandle) +
                                              " is not exported by this process (aclrtMemExportToShareableHandle)");
        }
    });
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle* handle) {
    return call("aclrtMemImportFromShareableHandle", [&] {
        State& s = state();
        require(handle, "handle");
        if (deviceId < 0 || deviceId >= s.runtime.device_count()) {
            fail(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId " + std::to_string(deviceId) + " is not in [0, " +
                                                    std::to_string(s.runtime.device_count()) + ")");
        }
        using engine::shareable::ImportStatus;
        engine::shareable::Imported imported = engine::shareable::request(shareableHandle);
        switch (imported.status) {
            case ImportStatus::ok: break;
            case ImportStatus::refused:
                fail(ACL_ERROR_RT_NO_PERMISSION, "shareableHandle " + std::to_string(shareableHandle) + ": " + imported.detail);
            case ImportStatus::no_exporter:
            case ImportStatus::unknown_handle:
                fail(ACL_ERROR_INVALID_PARAM, "shareableHandle " + std::to_string(shareableHandle) + ": " + imported.detail);
            case ImportStatus::failed:
                fail(ACL_ERROR_RT_INTERNAL_ERROR, "shareableHandle " + std::to_string(shareableHandle) + ": " + imported.detail);
        }
        *handle = s.physical_memory.add(engine::PhysicalMemory::adopt(imported.fd, imported.size, deviceId));
    });
}

}  // extern "C"

// ---- device memory shared by key ----------------------------------------------------------------

extern "C" {

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
    return call("aclrtIpcMemGetExportKey", [&] {
        State& s = state();
        require(devPtr, "devPtr");
        require(key, "key");
        if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
        if (len <= engine::shareable::key_length) {
            fail(ACL_ERROR_INVALID_PARAM, "len " + std::to_string(len) + " is too short for a key (at least " +
                                              std::to_string(engine::shareable::key_length + 1) + ")");
        }
        if (flags != ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT && flags != ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
            fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " is not an ACL_RT_IPC_MEM_EXPORT_FLAG_*");
        std::optional<engine::Allocation> allocation = allocation_of(s, devPtr, "devPtr");
        if (!allocation || allocation->kind != engine::MemoryKind::device)
            fail(ACL_ERROR_INVALID_PARAM, "devPtr " + describe(devPtr) + " is not device memory");
        // The pages move to shareable memory with their bytes: work queued on the device must not
        // write them meanwhile.
        if (allocation->device) allocation->device->wait_queued_work();
        auto [memory, offset] = s.runtime.memory().make_shareable(devPtr, size);
        const std::string made = engine::shareable::publish_key(std::move(memory), offset, size,
                                                                flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
        std::memcpy(key, made.c_str(), made.size() + 1);
    });
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
    return call("aclrtIpcMemSetImportPid", [&] {
        state();
        require(key, "key");
        require(pid, "pid");
        if (num == 0) fail(ACL_ERROR_INVALID_PARAM, "num is 0");
        for (size_t i = 0; i < num; ++i)
            if (pid[i] <= 0) fail(ACL_ERROR_INVALID_PARAM, "pid[" + std::to_string(i) + "] " + std::to_string(pid[i]) + " is not a process id");
        if (!engine::shareable::allow_key(key, pid, num))
            fail(ACL_ERROR_INVALID_PARAM, std::string("key \"") + key + "\" is not exported by this process (aclrtIpcMemGetExportKey)");
    });
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
    return call("aclrtIpcMemImportByKey", [&] {
        State& s = state();
        require(devPtr, "devPtr");
        require(key, "key");
        if (flags != ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT && flags != ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
            fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " is not an ACL_RT_IPC_MEM_IMPORT_FLAG_*");
        const std::string name(key, strnlen(key, 128));
        {
            std::lock_guard lock(s.ipc_imports_mutex);
            if (s.ipc_imports.count(name))
                fail(ACL_ERROR_INVALID_PARAM, "key \"" + name + "\" is already imported (aclrtIpcMemClose it first)");
        }
        using engine::shareable::ImportStatus;
        engine::shareable::Imported imported = engine::shareable::request_key(name);
        switch (imported.status) {
            case ImportStatus::ok: break;
            case ImportStatus::refused: fail(ACL_ERROR_RT_NO_PERMISSION, "key \"" + name + "\": " + imported.detail);
            case ImportStatus::no_exporter:
            case ImportStatus::unknown_handle: fail(ACL_ERROR_INVALID_PARAM, "key \"" + name + "\": " + imported.detail);
            case ImportStatus::failed: fail(ACL_ERROR_RT_INTERNAL_ERROR, "key \"" + name + "\": " + imported.detail);
        }
        int32_t device_id = 0;
        if (aclrtGetDevice(&device_id) != ACL_SUCCESS) device_id = 0;
        std::shared_ptr<engine::PhysicalMemory> memory = engine::PhysicalMemory::adopt(imported.fd, imported.size, device_id);
        void* pointer = s.runtime.memory().map_import(std::move(memory), imported.offset, imported.length,
                                                      reach_device(s, device_id));
        try {
            std::lock_guard lock(s.ipc_imports_mutex);
            if (!s.ipc_imports.emplace(name, pointer).second)
                fail(ACL_ERROR_INVALID_PARAM, "key \"" + name + "\" is already imported (aclrtIpcMemClose it first)");
        } catch (...) {
            s.runtime.memory().unmap_import(pointer);
            throw;
        }
        *devPtr = pointer;
    });
}

aclError aclrtIpcMemClose(const char* key) {
    return call("aclrtIpcMemClose", [&] {
        State& s = state();
        require(key, "key");
        const std::string name(key, strnlen(key, 128));
        void* imported = nullptr;
        {
            std::lock_guard lock(s.ipc_imports_mutex);
            auto it = s.ipc_imports.find(name);
            if (it != s.ipc_imports.end()) {
                imported = it->second;
                s.ipc_imports.erase(it);
            }
        }
        if (imported) {
            // Work queued on the importing device may still read or write the memory.
            int32_t device_id = 0;
            if (aclrtGetDevice(&device_id) == ACL_SUCCESS)
                if (engine::Device* device = reach_device(s, device_id)) device->wait_queued_work();
            s.runtime.memory().unmap_import(imported);
            return;
        }
        if (!engine::shareable::withdraw_key(name))
            fail(ACL_ERROR_INVALID_PARAM, "key \"" + name + "\" is neither exported nor imported by this process");
    });
}

}  // extern "C"
