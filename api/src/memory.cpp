// Memory: device and page-locked host allocations, copies and memsets, all checked against the
// registered allocations: a copy that runs past an allocation fails before it touches memory.
#include <optional>

#include "api.h"
#include "canopy/engine/capture.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"

namespace canopy::api {

std::optional<engine::Allocation> allocation_of(State& state, const void* pointer, const char* argument) {
    std::optional<engine::Allocation> allocation = state.runtime.memory().find(pointer);
    if (!allocation && state.runtime.memory().in_device_heap(pointer)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) +
                                          " is device memory that is not allocated (freed by aclrtFree?)");
    }
    return allocation;
}

namespace {

using engine::Allocation;
using engine::MemoryKind;
using engine::detail::checked_extent_2d;
using engine::detail::fits;

std::string bytes(std::size_t n) { return std::to_string(n) + " bytes"; }

// What a pointer is: device memory, registered host memory, or plain (pageable) host memory.
struct Side {
    std::optional<Allocation> allocation;
    bool device() const { return allocation && allocation->kind == MemoryKind::device; }
    bool pinned() const { return allocation && allocation->kind == MemoryKind::host_pinned; }
};

Side classify(State& state, const void* pointer, const char* argument) {
    return Side{allocation_of(state, pointer, argument)};
}

// extent bytes starting at pointer must lie inside its allocation, when it has one.
void check_extent(const Side& side, const void* pointer, std::size_t extent, const char* argument) {
    if (!side.allocation) return;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(pointer) - side.allocation->base;
    if (!fits(offset, extent, side.allocation->size)) {
        fail(ACL_ERROR_RT_PARAM_INVALID,
             std::string(argument) + " " + describe(pointer) + ": " + bytes(extent) + " at offset " +
                 std::to_string(offset) + " run past the end of its " +
                 (side.device() ? "device" : "host") + " allocation of " + bytes(side.allocation->size));
    }
}

// Host memory has no registered bounds, but its range must not wrap past the end of the address space.
void check_address_range(const void* pointer, std::size_t extent, const char* argument) {
    std::size_t end;
    if (!engine::detail::checked_add(reinterpret_cast<std::uintptr_t>(pointer), extent, end)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + ": " + bytes(extent) +
                                          " wrap past the end of the address space");
    }
}

const char* kind_name(int kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
        case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
        case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
        case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
        default: return "unsupported";
    }
}

// Checks the kind against what the pointers are (stricter than the hardware, which would copy
// garbage): a host pointer passed where device memory is expected is a bug.
void check_kind(int kind, const Side& dst, const Side& src) {
    bool dst_device, src_device;
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: dst_device = false, src_device = false; break;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: dst_device = true, src_device = false; break;
        case ACL_MEMCPY_DEVICE_TO_HOST: dst_device = false, src_device = true; break;
        case ACL_MEMCPY_DEVICE_TO_DEVICE: dst_device = true, src_device = true; break;
        case ACL_MEMCPY_DEFAULT: return;
        default: fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(kind) + " is not supported");
    }
    if (dst.device() != dst_device) {
        fail(ACL_ERROR_INVALID_PARAM, std::string("kind ") + kind_name(kind) + " but dst is " +
                                          (dst.device() ? "device" : "host") + " memory");
    }
    if (src.device() != src_device) {
        fail(ACL_ERROR_INVALID_PARAM, std::string("kind ") + kind_name(kind) + " but src is " +
                                          (src.device() ? "device" : "host") + " memory");
    }
}

struct CheckedCopy {
    bool needed;    // false for count 0 or dst == src
    bool pageable;  // a host side is not page-locked: CANN copies synchronously
    const char* direction = nullptr;  // "H2D", "D2H", "D2D" or "H2H": the operation's name (timelines)
};

const char* direction(const Side& dst, const Side& src) {
    return src.device() ? (dst.device() ? "D2D" : "D2H") : (dst.device() ? "H2D" : "H2H");
}

// Host memory outside the runtime's allocations is pageable unless the program registered it
// (page-locked, as CANN's driver makes it); a copy with a pageable side is synchronous.
bool is_pageable(const Side& side, const void* pointer, std::size_t extent) {
    return !side.allocation && !registered_host_range(pointer, extent);
}

CheckedCopy check_copy(State& state, void* dst, std::size_t destMax, const void* src, std::size_t count,
                       const aclrtMemcpyKind& kind_argument) {
    const int kind = raw_value(kind_argument);
    if (count > destMax) {
        fail(ACL_ERROR_RT_PARAM_INVALID, "count (" + std::to_string(count) + ") is larger than destMax (" +
                                             std::to_string(destMax) + ")");
    }
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
        fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(kind) + " is not supported");
    if (count == 0) return {false, false};
    require(dst, "dst");
    require(src, "src");
    check_address_range(dst, count, "dst");
    check_address_range(src, count, "src");
    const Side dst_side = classify(state, dst, "dst");
    const Side src_side = classify(state, src, "src");
    check_kind(kind, dst_side, src_side);
    check_extent(dst_side, dst, count, "dst");
    check_extent(src_side, src, count, "src");
    check_peer_access(state, dst_side.device() ? dst_side.allocation->device : nullptr,
                      src_side.device() ? src_side.allocation->device : nullptr);
    return {dst != src, is_pageable(dst_side, dst, count) || is_pageable(src_side, src, count), direction(dst_side, src_side)};
}

void check_memset(State& state, void* devPtr, std::size_t maxCount, std::size_t count) {
    if (count > maxCount) {
        fail(ACL_ERROR_RT_PARAM_INVALID, "count (" + std::to_string(count) + ") is larger than maxCount (" +
                                             std::to_string(maxCount) + ")");
    }
    if (count == 0) return;
    require(devPtr, "devPtr");
    const Side side = classify(state, devPtr, "devPtr");
    if (!side.allocation)
        fail(ACL_ERROR_INVALID_PARAM, "devPtr " + describe(devPtr) + " is not memory from aclrtMalloc or aclrtMallocHost");
    check_extent(side, devPtr, count, "devPtr");
}

CheckedCopy check_copy_2d(State& state, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                          std::size_t width, std::size_t height, const aclrtMemcpyKind& kind_argument) {
    const int kind = raw_value(kind_argument);
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT)
        fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(kind) + " is not supported");
    if (width > dpitch) fail(ACL_ERROR_INVALID_PARAM, "width (" + std::to_string(width) + ") is larger than dpitch (" + std::to_string(dpitch) + ")");
    if (width > spitch) fail(ACL_ERROR_INVALID_PARAM, "width (" + std::to_string(width) + ") is larger than spitch (" + std::to_string(spitch) + ")");
    if (width == 0 || height == 0) return {false, false};
    require(dst, "dst");
    require(src, "src");
    const Side dst_side = classify(state, dst, "dst");
    const Side src_side = classify(state, src, "src");
    // Checked: a huge pitch would otherwise wrap the extent to a small value that passes the bounds
    // check, and the copy would write rows far outside the allocation. Host rows are not bounded by
    // an allocation, but their addresses must not wrap either.
    std::size_t dst_extent, src_extent;
    if (!checked_extent_2d(dpitch, width, height, dst_extent)) {
        fail(ACL_ERROR_INVALID_PARAM, "dpitch (" + std::to_string(dpitch) + ") x height (" + std::to_string(height) +
                                          ") overflows size_t");
    }
    if (!checked_extent_2d(spitch, width, height, src_extent)) {
        fail(ACL_ERROR_INVALID_PARAM, "spitch (" + std::to_string(spitch) + ") x height (" + std::to_string(height) +
                                          ") overflows size_t");
    }
    check_address_range(dst, dst_extent, "dst");
    check_address_range(src, src_extent, "src");
    check_kind(kind, dst_side, src_side);
    check_extent(dst_side, dst, dst_extent, "dst");
    check_extent(src_side, src, src_extent, "src");
    check_peer_access(state, dst_side.device() ? dst_side.allocation->device : nullptr,
                      src_side.device() ? src_side.allocation->device : nullptr);
    return {true, is_pageable(dst_side, dst, dst_extent) || is_pageable(src_side, src, src_extent),
            direction(dst_side, src_side)};
}

void check_policy(const aclrtMemMallocPolicy& policy) {
    constexpr unsigned flags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                               ACL_MEM_ACCESS_USER_SPACE_READONLY;
    const auto value = static_cast<unsigned>(raw_value(policy));
    if ((value & ~flags) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        fail(ACL_ERROR_INVALID_PARAM, "policy " + std::to_string(value) + " is not an aclrtMemMallocPolicy");
}

void* allocate(State& state, std::size_t size, MemoryKind kind, engine::Device* device) {
    if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
    if (size > (std::size_t{1} << 48)) fail(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " is too large");
    void* pointer = state.runtime.memory().allocate(size, kind, device);
    if (!pointer) {
        fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
             "cannot allocate " + bytes(size) +
                 (device ? " on device " + std::to_string(device->id()) + " (" + bytes(device->memory_used()) +
                               " of " + bytes(device->config().device_memory_bytes) + " in use)"
                         : std::string(" of host memory")));
    }
    return pointer;
}

// The synchronous copies and memsets: see RuntimeConfig::sync_copies_wait and
// Device::wait_queued_work (which never waits when called from a host function or callback).
void wait_if_configured(engine::Device& device) {
    if (device.config().sync_copies_wait) device.wait_queued_work();
}

engine::Operation copy_operation(void* dst, const void* src, std::size_t count, const char* direction) {
    return engine::Operation{engine::OpKind::memcpy, count, direction,
                             [dst, src, count](engine::OpRun&) { engine::copy_bytes(dst, src, count); }};
}

// Enqueues a copy or memset on `target`. On a capturing stream the operation keeps the spans of
// runtime memory it touches, so that each replay first checks they are still allocated
// (engine::checked_at_replay); pageable host memory is the program's to keep alive.
void enqueue_touching(State& s, engine::Stream& target, engine::Operation operation,
                      std::initializer_list<engine::MemorySpan> spans) {
    if (!capturing(target)) {
        target.enqueue(std::move(operation));
        return;
    }
    std::vector<engine::MemorySpan> known;
    for (engine::MemorySpan span : spans) {
        if (const std::optional<engine::Allocation> allocation = s.runtime.memory().find(span.address)) {
            span.serial = allocation->serial;
            known.push_back(span);
        }
    }
    target.enqueue(engine::checked_at_replay(std::move(operation), std::move(known), s.runtime.memory()));
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return call("aclrtMalloc", [&] {
        require(devPtr, "devPtr");
        State& s = state();
        check_policy(policy);
        engine::Device& device = current_context(s).device();
        *devPtr = allocate(s, size, MemoryKind::device, &device);
    });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    return call("aclrtMallocHost", [&] {
        require(hostPtr, "hostPtr");
        *hostPtr = allocate(state(), size, MemoryKind::host_pinned, nullptr);
    });
}

// Unified memory: one address for host and device. On a CPU that is ordinary memory, kept as a
// device allocation of the current device so that aclrtFree, copies and kernels treat it as such;
// the size is rounded up to 2 MiB as CANN does.
aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
    return call("aclrtMemAllocManaged", [&] {
        require(ptr, "ptr");
        State& s = state();
        if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) + " must be ACL_RT_MEM_ATTACH_GLOBAL");
        if (size == 0) fail(ACL_ERROR_INVALID_PARAM, "size is 0");
        constexpr std::uint64_t granule = std::uint64_t{2} << 20;
        if (size > (std::uint64_t{1} << 48)) fail(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " is too large");
        engine::Device& device = current_context(s).device();
        *ptr = allocate(s, static_cast<std::size_t>((size + granule - 1) / granule * granule), MemoryKind::device, &device);
    });
}

aclError aclrtFree(void* devPtr) {
    return call("aclrtFree", [&] {
        require(devPtr, "devPtr");
        if (is_hardware_sync_area(state(), devPtr)) {
            fail(ACL_ERROR_RT_MEMORY_FREE, "devPtr " + describe(devPtr) +
                                               " is a device's hardware sync address from aclrtGetHardwareSyncAddr, "
                                               "which the runtime owns");
        }
        if (!state().runtime.release_memory(devPtr, MemoryKind::device))
            fail(ACL_ERROR_RT_MEMORY_FREE, "devPtr " + describe(devPtr) + " is not a live allocation from aclrtMalloc");
    });
}

aclError aclrtFreeHost(void* hostPtr) {
    return call("aclrtFreeHost", [&] {
        require(hostPtr, "hostPtr");
        if (!state().runtime.release_memory(hostPtr, MemoryKind::host_pinned))
            fail(ACL_ERROR_RT_MEMORY_FREE, "hostPtr " + describe(hostPtr) + " is not a live allocation from aclrtMallocHost");
    });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    return call("aclrtMemcpy", [&] {
        State& s = state();
        engine::Device& device = current_context(s).device();
        if (!check_copy(s, dst, destMax, src, count, kind).needed) return;
        refuse_unsafe_during_capture("aclrtMemcpy");
        // Synchronous, on the calling thread helped by the device's workers. As documented for
        // CANN it does not wait for any stream (programs synchronize first), unless the runtime
        // was configured to order it after queued work (sync_copies_wait, config.h).
        wait_if_configured(device);
        device.arena().execute([&] { engine::copy_bytes(dst, src, count); });
    });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    return call("aclrtMemcpyAsync", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        const CheckedCopy copy = check_copy(s, dst, destMax, src, count, kind);
        if (!copy.needed) return;
        if (copy.pageable) {
            refuse_unsafe_during_capture("aclrtMemcpyAsync from or to pageable host memory");
            // A capture records the copy: the replay copies from the buffer as it then is.
            if (capturing(target)) {
                enqueue_touching(s, target, copy_operation(dst, src, count, copy.direction),
                                 {{dst, count, "dst", 0}, {src, count, "src", 0}});
                return;
            }
            // As CANN: pageable host memory is copied synchronously once the stream has drained,
            // so the caller may reuse its buffer as soon as the call returns.
            check(target.synchronize());
            target.device().arena().execute([&] { engine::copy_bytes(dst, src, count); });
            return;
        }
        enqueue_touching(s, target, copy_operation(dst, src, count, copy.direction),
                         {{dst, count, "dst", 0}, {src, count, "src", 0}});
    });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    return call("aclrtMemset", [&] {
        State& s = state();
        engine::Device& device = current_context(s).device();
        check_memset(s, devPtr, maxCount, count);
        if (count == 0) return;
        refuse_unsafe_during_capture("aclrtMemset");
        wait_if_configured(device);
        device.arena().execute([&] { engine::fill_bytes(devPtr, value, count); });
    });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    return call("aclrtMemsetAsync", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        check_memset(s, devPtr, maxCount, count);
        if (count == 0) return;
        enqueue_touching(s, target,
                         engine::Operation{engine::OpKind::memset, count, nullptr,
                                           [devPtr, value, count](engine::OpRun&) { engine::fill_bytes(devPtr, value, count); }},
                         {{devPtr, count, "devPtr", 0}});
    });
}

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
    return call("aclrtMemcpy2d", [&] {
        State& s = state();
        engine::Device& device = current_context(s).device();
        if (!check_copy_2d(s, dst, dpitch, src, spitch, width, height, kind).needed) return;
        refuse_unsafe_during_capture("aclrtMemcpy2d");
        wait_if_configured(device);
        device.arena().execute([&] { engine::copy_2d(dst, dpitch, src, spitch, width, height); });
    });
}

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
    return call("aclrtMemcpy2dAsync", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        const CheckedCopy copy = check_copy_2d(s, dst, dpitch, src, spitch, width, height, kind);
        if (!copy.needed) return;
        if (copy.pageable) {
            refuse_unsafe_during_capture("aclrtMemcpy2dAsync from or to pageable host memory");
            if (!capturing(target)) {
                check(target.synchronize());
                target.device().arena().execute([&] { engine::copy_2d(dst, dpitch, src, spitch, width, height); });
                return;
            }
        }
        // The 2-D regions' reach: whole pitches but the last row's.
        const std::uint64_t dst_reach = std::uint64_t(dpitch) * (height - 1) + width;
        const std::uint64_t src_reach = std::uint64_t(spitch) * (height - 1) + width;
        enqueue_touching(s, target,
                         engine::Operation{engine::OpKind::memcpy, width * height, copy.direction,
                                           [=](engine::OpRun&) { engine::copy_2d(dst, dpitch, src, spitch, width, height); }},
                         {{dst, dst_reach, "dst", 0}, {src, src_reach, "src", 0}});
    });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    return call("aclrtGetMemInfo", [&] {
        require(free, "free");
        require(total, "total");
        State& s = state();
        const auto attribute = raw_value(attr);
        if (attribute < ACL_DDR_MEM || attribute > ACL_MEM_P2P_HUGE1G)
            fail(ACL_ERROR_INVALID_PARAM, "attr " + std::to_string(attribute) + " is not an aclrtMemAttr");
        engine::Device& device = current_context(s).device();
        *total = device.config().device_memory_bytes;
        *free = *total - device.memory_used();
    });
}

}  // extern "C"
