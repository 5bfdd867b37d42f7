// Memory: device and page-locked host allocation, the memory budget, copies (synchronous,
// asynchronous, 2-D) with their kinds and bounds, memsets and aclrtGetMemInfo.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
using Bytes = std::vector<unsigned char>;

// A runtime whose device has a 64 MiB budget.
class SmallDevice : public ConfiguredRuntime {
public:
    SmallDevice() : ConfiguredRuntime(2, 1, 64) {}
};

Bytes pattern(std::size_t size, unsigned char seed) {
    Bytes bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>(seed + i * 7);
    return bytes;
}

// Device memory read back with a synchronous copy.
Bytes read_device(const void* device, std::size_t size) {
    Bytes bytes(size);
    CHECK_ACL(aclrtMemcpy(bytes.data(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST));
    return bytes;
}

void write_device(void* device, const Bytes& bytes) {
    CHECK_ACL(aclrtMemcpy(device, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
}

class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t size) : size_(size) {
        REQUIRE_ACL(aclrtMalloc(&pointer_, size, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    ~DeviceBuffer() { aclrtFree(pointer_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    unsigned char* get() const { return static_cast<unsigned char*>(pointer_); }
    std::size_t size() const { return size_; }

private:
    void* pointer_ = nullptr;
    std::size_t size_;
};

class HostBuffer {
public:
    explicit HostBuffer(std::size_t size) : size_(size) { REQUIRE_ACL(aclrtMallocHost(&pointer_, size)); }
    ~HostBuffer() { aclrtFreeHost(pointer_); }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    unsigned char* get() const { return static_cast<unsigned char*>(pointer_); }
    std::size_t size() const { return size_; }

private:
    void* pointer_ = nullptr;
    std::size_t size_;
};
}  // namespace

// ---- allocation

TEST_CASE("aclrtMalloc returns 32-byte aligned, usable device memory; aclrtFree releases it") {
    Runtime rt;
    for (size_t size : {size_t{1}, size_t{31}, size_t{32}, size_t{4096}, size_t{1} << 20}) {
        CAPTURE(size);
        void* memory = nullptr;
        REQUIRE_ACL(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(reinterpret_cast<std::uintptr_t>(memory) % 32 == 0);
        const Bytes data = pattern(size, 3);
        write_device(memory, data);
        CHECK(read_device(memory, size) == data);
        CHECK_ACL(aclrtFree(memory));
    }
}

TEST_CASE("aclrtMalloc rejects size 0, overflowing sizes and a NULL out-pointer with ACL_ERROR_INVALID_PARAM") {
    Runtime rt;
    void* memory = nullptr;
    CHECK_ACL_CODE(aclrtMalloc(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMalloc(&memory, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMalloc(&memory, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK(memory == nullptr);
}

TEST_CASE("aclrtMalloc accepts every documented policy and flag bit, and rejects others") {
    Runtime rt;
    const unsigned policies[] = {0, 1, 2, 3, 4, 5, 6, 7, 0x100, 0x1000, 0x100000, 0x100 | 2, 0x1000 | 1, 0x100000 | 0x1000 | 7};
    for (unsigned policy : policies) {
        CAPTURE(policy);
        void* memory = nullptr;
        CHECK_ACL(aclrtMalloc(&memory, 64, static_cast<aclrtMemMallocPolicy>(policy)));
        if (memory) CHECK_ACL(aclrtFree(memory));
    }
    // Invalid values the enum can still represent (C++ cannot form others without undefined behaviour).
    for (unsigned policy : {8u, 15u, 0x200u, 0x100u | 9u, 0x1FFFFFu}) {
        CAPTURE(policy);
        void* memory = nullptr;
        CHECK_ACL_CODE(aclrtMalloc(&memory, 64, static_cast<aclrtMemMallocPolicy>(policy)), ACL_ERROR_INVALID_PARAM);
    }
}

TEST_CASE("allocations beyond device_memory_mb fail with ACL_ERROR_RT_MEMORY_ALLOCATION until memory is freed") {
    SmallDevice rt;
    void* big = nullptr;
    CHECK_ACL_CODE(aclrtMalloc(&big, size_t{65} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_ACL_CODE(aclrtMalloc(&big, size_t{1} << 40, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);

    void* first = nullptr;
    void* second = nullptr;
    REQUIRE_ACL(aclrtMalloc(&first, size_t{40} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL_CODE(aclrtMalloc(&second, size_t{40} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_ACL(aclrtFree(first));
    CHECK_ACL(aclrtMalloc(&second, size_t{40} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtFree(second));
}

TEST_CASE("aclrtGetMemInfo reports the budget and what allocations use of it") {
    SmallDevice rt;
    size_t free_before = 0, total = 0;
    REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
    CHECK(total == size_t{64} << 20);
    CHECK(free_before <= total);

    void* memory = nullptr;
    REQUIRE_ACL(aclrtMalloc(&memory, size_t{1} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t free_during = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_during, &total));
    CHECK(free_during <= free_before - (size_t{1} << 20));
    CHECK(free_during >= free_before - (size_t{1} << 20) - 1024);  // padding and rounding only
    CHECK_ACL(aclrtFree(memory));
    size_t free_after = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
    CHECK(free_after == free_before);

    CHECK_ACL_CODE(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetMemInfo(static_cast<aclrtMemAttr>(31), &free_after, &total), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtMallocHost returns usable page-locked memory; its argument checks") {
    Runtime rt;
    void* host = nullptr;
    REQUIRE_ACL(aclrtMallocHost(&host, 4096));
    CHECK(reinterpret_cast<std::uintptr_t>(host) % 32 == 0);
    std::memset(host, 0x5a, 4096);  // plain host memory for the program
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL_CODE(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("freeing unknown memory, freeing twice, or with the wrong call is an error, not a crash") {
    Runtime rt;
    int on_stack = 0;
    std::vector<char> on_heap(64);
    CHECK_ACL_CODE(aclrtFree(&on_stack), ACL_ERROR_RT_MEMORY_FREE);
    CHECK_ACL_CODE(aclrtFree(on_heap.data()), ACL_ERROR_RT_MEMORY_FREE);
    CHECK_ACL_CODE(aclrtFreeHost(&on_stack), ACL_ERROR_RT_MEMORY_FREE);
    CHECK_ACL_CODE(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);

    void* device = nullptr;
    void* host = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMallocHost(&host, 64));
    CHECK_ACL_CODE(aclrtFreeHost(device), ACL_ERROR_RT_MEMORY_FREE);   // device memory is not host memory
    CHECK_ACL_CODE(aclrtFree(host), ACL_ERROR_RT_MEMORY_FREE);         // and the other way round
    CHECK_ACL_CODE(aclrtFree(static_cast<char*>(device) + 8), ACL_ERROR_RT_MEMORY_FREE);  // not the base
    CHECK_ACL(aclrtFree(device));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL_CODE(aclrtFree(device), ACL_ERROR_RT_MEMORY_FREE);
    CHECK_ACL_CODE(aclrtFreeHost(host), ACL_ERROR_RT_MEMORY_FREE);
}

// ---- synchronous copies

TEST_CASE("aclrtMemcpy with count 0 succeeds without touching its pointers") {
    Runtime rt;
    CHECK_ACL(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(reinterpret_cast<void*>(0x10), 16, reinterpret_cast<void*>(0x20), 0, ACL_MEMCPY_DEFAULT));
}

TEST_CASE("aclrtMemcpy with count > destMax is ACL_ERROR_RT_PARAM_INVALID and copies nothing") {
    Runtime rt;
    DeviceBuffer device(64);
    write_device(device.get(), Bytes(64, 0));
    const Bytes source = pattern(64, 1);
    CHECK_ACL_CODE(aclrtMemcpy(device.get(), 32, source.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(read_device(device.get(), 64) == Bytes(64, 0));
}

TEST_CASE("aclrtMemcpy with dst == src succeeds and leaves the data alone") {
    Runtime rt;
    DeviceBuffer device(64);
    const Bytes data = pattern(64, 9);
    write_device(device.get(), data);
    CHECK_ACL(aclrtMemcpy(device.get(), 64, device.get(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(read_device(device.get(), 64) == data);
    Bytes host = pattern(64, 4);
    CHECK_ACL(aclrtMemcpy(host.data(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST));
    CHECK(host == pattern(64, 4));
}

TEST_CASE("aclrtMemcpy copies in every supported direction, with DEFAULT inferring it") {
    Runtime rt;
    constexpr std::size_t n = 256;
    DeviceBuffer device_a(n), device_b(n);
    HostBuffer pinned(n);
    const Bytes source = pattern(n, 17);

    SUBCASE("HOST_TO_HOST") {
        Bytes destination(n, 0);
        CHECK_ACL(aclrtMemcpy(destination.data(), n, source.data(), n, ACL_MEMCPY_HOST_TO_HOST));
        CHECK(destination == source);
    }
    SUBCASE("HOST_TO_DEVICE then DEVICE_TO_HOST") {
        CHECK_ACL(aclrtMemcpy(device_a.get(), n, source.data(), n, ACL_MEMCPY_HOST_TO_DEVICE));
        Bytes back(n, 0);
        CHECK_ACL(aclrtMemcpy(back.data(), n, device_a.get(), n, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(back == source);
    }
    SUBCASE("DEVICE_TO_DEVICE") {
        write_device(device_a.get(), source);
        CHECK_ACL(aclrtMemcpy(device_b.get(), n, device_a.get(), n, ACL_MEMCPY_DEVICE_TO_DEVICE));
        CHECK(read_device(device_b.get(), n) == source);
    }
    SUBCASE("HOST_TO_BUF_TO_DEVICE is a host-to-device copy") {
        CHECK_ACL(aclrtMemcpy(device_a.get(), n, source.data(), n, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
        CHECK(read_device(device_a.get(), n) == source);
    }
    SUBCASE("page-locked host memory is host memory") {
        std::memcpy(pinned.get(), source.data(), n);
        CHECK_ACL(aclrtMemcpy(device_a.get(), n, pinned.get(), n, ACL_MEMCPY_HOST_TO_DEVICE));
        std::memset(pinned.get(), 0, n);
        CHECK_ACL(aclrtMemcpy(pinned.get(), n, device_a.get(), n, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(Bytes(pinned.get(), pinned.get() + n) == source);
    }
    SUBCASE("DEFAULT infers each direction from the pointers") {
        Bytes host(n, 0);
        CHECK_ACL(aclrtMemcpy(device_a.get(), n, source.data(), n, ACL_MEMCPY_DEFAULT));       // H2D
        CHECK_ACL(aclrtMemcpy(device_b.get(), n, device_a.get(), n, ACL_MEMCPY_DEFAULT));      // D2D
        CHECK_ACL(aclrtMemcpy(pinned.get(), n, device_b.get(), n, ACL_MEMCPY_DEFAULT));        // D2H
        CHECK_ACL(aclrtMemcpy(host.data(), n, pinned.get(), n, ACL_MEMCPY_DEFAULT));           // H2H
        CHECK(host == source);
    }
    SUBCASE("copies at interior offsets inside an allocation") {
        write_device(device_a.get(), Bytes(n, 0));
        CHECK_ACL(aclrtMemcpy(device_a.get() + 100, n - 100, source.data(), 56, ACL_MEMCPY_HOST_TO_DEVICE));
        const Bytes back = read_device(device_a.get(), n);
        CHECK(Bytes(back.begin() + 100, back.begin() + 156) == Bytes(source.begin(), source.begin() + 56));
        CHECK(Bytes(back.begin(), back.begin() + 100) == Bytes(100, 0));
        CHECK(Bytes(back.begin() + 156, back.end()) == Bytes(n - 156, 0));
    }
}

// ---- synchronous copies ordered after queued work (the "sync_copies_wait" option)
namespace {
// A runtime whose synchronous copies and memsets wait for the work queued on the device's streams.
class OrderedSyncRuntime {
public:
    OrderedSyncRuntime() : file_("{\"canopy\": {\"workers_per_device\": 2, \"sync_copies_wait\": true}}"), runtime_(file_.path()) {}

private:
    ConfigFile file_;
    Runtime runtime_;
};

// A host function that sleeps, then stores `value` into every byte of device memory, as a kernel
// still running when the synchronous copy is called would.
struct SlowWrite {
    unsigned char* device;
    std::size_t size;
    unsigned char value;
    static void run(void* self) {
        auto* write = static_cast<SlowWrite*>(self);
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        std::memset(write->device, write->value, write->size);
    }
};
}  // namespace

TEST_CASE("with sync_copies_wait, aclrtMemcpy, aclrtMemcpy2d and aclrtMemset run after the work queued on every stream") {
    OrderedSyncRuntime rt;
    constexpr std::size_t n = 256;
    Stream stream;
    DeviceBuffer device(n);
    DeviceBuffer copy(n);
    write_device(device.get(), Bytes(n, 0));

    SUBCASE("a copy reads what a host function queued on another stream wrote") {
        SlowWrite write{device.get(), n, 0x3c};
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &SlowWrite::run, &write));
        CHECK_ACL(aclrtMemcpy(copy.get(), n, device.get(), n, ACL_MEMCPY_DEVICE_TO_DEVICE));
        CHECK(read_device(copy.get(), n) == Bytes(n, 0x3c));
    }
    SUBCASE("the default stream's queued work is waited for too") {
        SlowWrite write{device.get(), n, 0x11};
        REQUIRE_ACL(aclrtLaunchHostFunc(nullptr, &SlowWrite::run, &write));
        CHECK(read_device(device.get(), n) == Bytes(n, 0x11));
    }
    SUBCASE("a memset lands after a queued write, not under it") {
        SlowWrite write{device.get(), n, 0x77};
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &SlowWrite::run, &write));
        CHECK_ACL(aclrtMemset(device.get(), n, 0x05, n));
        CHECK_ACL(aclrtSynchronizeStream(stream));
        CHECK(read_device(device.get(), n) == Bytes(n, 0x05));
    }
    SUBCASE("a 2-D copy reads what a queued write left") {
        SlowWrite write{device.get(), n, 0x42};
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &SlowWrite::run, &write));
        Bytes rows(64, 0);
        CHECK_ACL(aclrtMemcpy2d(rows.data(), 16, device.get(), 32, 16, 4, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rows == Bytes(64, 0x42));
    }
}

namespace {
// Calls a synchronous copy from inside a host function of `stream`, with work queued behind it.
struct CopyInHostFunc {
    aclrtContext context;
    unsigned char* device;
    std::size_t size;
    Bytes read;
    aclError rc = ACL_ERROR_INTERNAL_ERROR;
    std::atomic<int> after_done{0};
    static void run(void* self) {
        auto* call = static_cast<CopyInHostFunc*>(self);
        aclrtSetCurrentContext(call->context);
        call->read.assign(call->size, 0xff);
        call->rc = aclrtMemcpy(call->read.data(), call->size, call->device, call->size, ACL_MEMCPY_DEVICE_TO_HOST);
    }
};
}  // namespace

TEST_CASE("with sync_copies_wait, a synchronous copy inside a host function does not wait (it would wait for itself)") {
    OrderedSyncRuntime rt;
    constexpr std::size_t n = 64;
    Stream stream;
    DeviceBuffer device(n);
    write_device(device.get(), Bytes(n, 9));
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtGetCurrentContext(&context));
    CopyInHostFunc call{context, device.get(), n, {}};
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &CopyInHostFunc::run, &call));
    // Work queued behind the host function: waiting for it from inside would never end.
    REQUIRE_ACL(launch_increment(stream, call.after_done));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(call.rc == ACL_SUCCESS);
    CHECK(call.read == Bytes(n, 9));
    CHECK(call.after_done == 1);
}

TEST_CASE("with sync_copies_wait, a stream parked on a notify nobody has recorded yet does not hold a copy up") {
    OrderedSyncRuntime rt;
    constexpr std::size_t n = 64;
    Stream waiting;
    Stream busy;
    DeviceBuffer device(n);
    write_device(device.get(), Bytes(n, 0));
    aclrtNotify notify = nullptr;
    REQUIRE_ACL(aclrtCreateNotify(&notify, 0));
    // Only this thread records the notify, after the copy: waiting for `waiting` would hang.
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, waiting, 0));
    std::atomic<int> behind_wait{0};
    REQUIRE_ACL(launch_increment(waiting, behind_wait));
    // The other stream's queued work is still waited for.
    SlowWrite write{device.get(), n, 0x66};
    REQUIRE_ACL(aclrtLaunchHostFunc(busy, &SlowWrite::run, &write));
    CHECK(read_device(device.get(), n) == Bytes(n, 0x66));
    CHECK(behind_wait == 0);
    REQUIRE_ACL(aclrtRecordNotify(notify, busy));
    CHECK_ACL(aclrtSynchronizeStream(waiting));
    CHECK(behind_wait == 1);
    CHECK_ACL(aclrtDestroyNotify(notify));
}

TEST_CASE("sync_copies_wait must be a boolean") {
    ConfigFile file("{\"canopy\": {\"sync_copies_wait\": 1}}");
    CHECK_ACL_CODE(aclInit(file.path()), ACL_ERROR_FILE_ATTR_INVALID);
}

TEST_CASE("copy kinds 6 and 7 and wrong-direction kinds are ACL_ERROR_INVALID_PARAM") {
    Runtime rt;
    constexpr std::size_t n = 64;
    DeviceBuffer device(n), other_device(n);
    write_device(device.get(), Bytes(n, 0));
    write_device(other_device.get(), Bytes(n, 0));
    const Bytes source = pattern(n, 5);
    Bytes host(n, 0);

    for (int kind : {ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE}) {
        CAPTURE(kind);
        const auto k = static_cast<aclrtMemcpyKind>(kind);
        CHECK_ACL_CODE(aclrtMemcpy(device.get(), n, other_device.get(), n, k), ACL_ERROR_INVALID_PARAM);
        CHECK_ACL_CODE(aclrtMemcpyAsync(device.get(), n, other_device.get(), n, k, nullptr), ACL_ERROR_INVALID_PARAM);
    }
    // Host source where the kind says device, device destination where it says host, ...
    CHECK_ACL_CODE(aclrtMemcpy(device.get(), n, source.data(), n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy(device.get(), n, source.data(), n, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy(device.get(), n, source.data(), n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), n, device.get(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), n, source.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), n, source.data(), n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK(read_device(device.get(), n) == Bytes(n, 0));
    CHECK(host == Bytes(n, 0));
}

TEST_CASE("copies and memsets running past a device allocation are ACL_ERROR_RT_PARAM_INVALID and write nothing") {
    Runtime rt;
    constexpr std::size_t n = 64;
    DeviceBuffer device(n), other(n);
    const Bytes original = pattern(n, 77);
    write_device(device.get(), original);
    write_device(other.get(), original);
    const Bytes source = pattern(2 * n, 1);
    Bytes host(2 * n, 0);

    // destMax claims room the allocation does not have.
    CHECK_ACL_CODE(aclrtMemcpy(device.get() + 32, n, source.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpy(device.get(), 2 * n, source.data(), n + 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpy(other.get(), n, device.get() + 1, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), 2 * n, device.get(), 2 * n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemset(device.get() + 60, n, 0, 8), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpyAsync(device.get() + 32, n, source.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemsetAsync(device.get() + 1, n, 0, n, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL(aclrtSynchronizeStream(nullptr));

    CHECK(read_device(device.get(), n) == original);
    CHECK(read_device(other.get(), n) == original);
    CHECK(host == Bytes(2 * n, 0));
    // The exact fit is fine.
    CHECK_ACL(aclrtMemcpy(device.get() + 32, 32, source.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE));
}

// ---- asynchronous copies

TEST_CASE("aclrtMemcpyAsync from aclrtMallocHost memory is asynchronous: it runs in stream order") {
    Runtime rt;
    constexpr std::size_t n = 1024;
    Stream stream;
    DeviceBuffer device(n);
    HostBuffer pinned(n);
    write_device(device.get(), Bytes(n, 0));
    const Bytes data = pattern(n, 33);
    std::memcpy(pinned.get(), data.data(), n);

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    // Returns while the gate holds the stream: the copy is queued behind it.
    CHECK_ACL(aclrtMemcpyAsync(device.get(), n, pinned.get(), n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(read_device(device.get(), n) == Bytes(n, 0));
    aclrtStreamStatus status;
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_NOT_READY);

    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(read_device(device.get(), n) == data);
    CHECK_FALSE(gate.timed_out());
}

TEST_CASE("aclrtMemcpyAsync device-to-host into aclrtMallocHost memory is asynchronous too") {
    Runtime rt;
    constexpr std::size_t n = 512;
    Stream stream;
    DeviceBuffer device(n);
    HostBuffer pinned(n);
    const Bytes data = pattern(n, 8);
    write_device(device.get(), data);
    std::memset(pinned.get(), 0, n);

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    CHECK_ACL(aclrtMemcpyAsync(pinned.get(), n, device.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK(Bytes(pinned.get(), pinned.get() + n) == Bytes(n, 0));
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(Bytes(pinned.get(), pinned.get() + n) == data);
}

TEST_CASE("aclrtMemcpyAsync from pageable memory completes before it returns, so the buffer can be reused") {
    ConfiguredRuntime rt(2);
    constexpr std::size_t n = 4096;
    Stream stream;
    DeviceBuffer device(n);
    write_device(device.get(), Bytes(n, 0));
    Bytes buffer = pattern(n, 99);
    const Bytes sent = buffer;

    // Earlier work on the stream, released by another thread once it has started: the pageable
    // copy first drains the stream, then copies.
    Gate gate;
    std::atomic<int> before{0};
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(launch_increment(stream, before));
    std::thread opener([&] {
        gate.wait_entered();
        gate.open();
    });
    CHECK_ACL(aclrtMemcpyAsync(device.get(), n, buffer.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(before == 1);
    std::fill(buffer.begin(), buffer.end(), 0xEE);  // reused at once
    CHECK(read_device(device.get(), n) == sent);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(read_device(device.get(), n) == sent);
    opener.join();
}

TEST_CASE("asynchronous device-to-device copies and memsets run in stream order") {
    Runtime rt;
    constexpr std::size_t n = 256;
    Stream stream;
    DeviceBuffer a(n), b(n);
    HostBuffer out(n);
    write_device(a.get(), pattern(n, 2));
    CHECK_ACL(aclrtMemsetAsync(b.get(), n, 0x11, n, stream));
    CHECK_ACL(aclrtMemcpyAsync(b.get(), n, a.get(), n / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    CHECK_ACL(aclrtMemsetAsync(a.get(), n, 0x22, n, stream));  // after the copy read a
    CHECK_ACL(aclrtMemcpyAsync(out.get(), n, b.get(), n, ACL_MEMCPY_DEFAULT, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    Bytes expected = pattern(n, 2);
    std::fill(expected.begin() + n / 2, expected.end(), 0x11);
    CHECK(Bytes(out.get(), out.get() + n) == expected);
    CHECK(read_device(a.get(), n) == Bytes(n, 0x22));
}

TEST_CASE("aclrtMemcpyAsync argument checks match aclrtMemcpy") {
    Runtime rt;
    DeviceBuffer device(64);
    const Bytes source = pattern(64, 1);
    CHECK_ACL(aclrtMemcpyAsync(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
    CHECK_ACL_CODE(aclrtMemcpyAsync(device.get(), 32, source.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpyAsync(device.get(), 64, source.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpyAsync(device.get(), 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
                   ACL_ERROR_INVALID_PARAM);
}

// ---- memset

TEST_CASE("aclrtMemset fills count bytes with the low byte of value and checks count against maxCount") {
    Runtime rt;
    constexpr std::size_t n = 128;
    DeviceBuffer device(n);
    write_device(device.get(), Bytes(n, 0));
    CHECK_ACL(aclrtMemset(device.get(), n, 0x7f, 100));
    Bytes expected(n, 0);
    std::fill(expected.begin(), expected.begin() + 100, 0x7f);
    CHECK(read_device(device.get(), n) == expected);

    CHECK_ACL_CODE(aclrtMemset(device.get(), 10, 0, 11), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL(aclrtMemset(device.get(), 0, 0, 0));  // count 0
    CHECK_ACL(aclrtMemset(nullptr, 0, 0, 0));
    CHECK_ACL_CODE(aclrtMemset(nullptr, 8, 0, 8), ACL_ERROR_INVALID_PARAM);
    CHECK(read_device(device.get(), n) == expected);

    HostBuffer pinned(n);
    CHECK_ACL(aclrtMemset(pinned.get(), n, 0x33, n));
    CHECK(Bytes(pinned.get(), pinned.get() + n) == Bytes(n, 0x33));
}

TEST_CASE("aclrtMemsetAsync runs in stream order") {
    Runtime rt;
    constexpr std::size_t n = 64;
    Stream stream;
    DeviceBuffer device(n);
    write_device(device.get(), Bytes(n, 0));
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    CHECK_ACL(aclrtMemsetAsync(device.get(), n, 0xab, n, stream));
    CHECK(read_device(device.get(), n) == Bytes(n, 0));
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(read_device(device.get(), n) == Bytes(n, 0xab));
    CHECK_ACL_CODE(aclrtMemsetAsync(device.get(), 8, 0, 9, stream), ACL_ERROR_RT_PARAM_INVALID);
}

// ---- 2-D copies

TEST_CASE("aclrtMemcpy2d copies width bytes of each row between pitched layouts") {
    Runtime rt;
    constexpr std::size_t width = 8, height = 4, spitch = 16, dpitch = 12;
    const Bytes source = pattern(spitch * height, 40);
    DeviceBuffer device(dpitch * height);
    write_device(device.get(), Bytes(dpitch * height, 0));

    CHECK_ACL(aclrtMemcpy2d(device.get(), dpitch, source.data(), spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE));
    const Bytes copied = read_device(device.get(), dpitch * height);
    for (std::size_t row = 0; row < height; ++row) {
        CAPTURE(row);
        for (std::size_t column = 0; column < dpitch; ++column) {
            const unsigned char expected = column < width ? source[row * spitch + column] : 0;
            CHECK(copied[row * dpitch + column] == expected);
        }
    }

    // And back, into a wider host layout.
    constexpr std::size_t back_pitch = 20;
    Bytes back(back_pitch * height, 0);
    CHECK_ACL(aclrtMemcpy2d(back.data(), back_pitch, device.get(), dpitch, width, height, ACL_MEMCPY_DEFAULT));
    for (std::size_t row = 0; row < height; ++row)
        CHECK(Bytes(back.begin() + row * back_pitch, back.begin() + row * back_pitch + width) ==
              Bytes(source.begin() + row * spitch, source.begin() + row * spitch + width));
}

TEST_CASE("aclrtMemcpy2d argument checks: width above a pitch, kinds, bounds") {
    Runtime rt;
    DeviceBuffer device(64);
    Bytes host(64, 0);
    CHECK_ACL_CODE(aclrtMemcpy2d(device.get(), 8, host.data(), 16, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy2d(device.get(), 16, host.data(), 8, 9, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 8, 2, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 8, 2, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    // 5 rows of pitch 16 end at byte 72 of a 64-byte allocation.
    CHECK_ACL_CODE(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 8, 5, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL(aclrtMemcpy2d(device.get(), 16, host.data(), 16, 0, 5, ACL_MEMCPY_HOST_TO_DEVICE));  // nothing to copy
}

TEST_CASE("aclrtMemcpy2dAsync with page-locked memory runs in stream order") {
    Runtime rt;
    constexpr std::size_t width = 16, height = 8, pitch = 32;
    Stream stream;
    HostBuffer pinned(pitch * height);
    DeviceBuffer device(width * height);
    write_device(device.get(), Bytes(width * height, 0));
    const Bytes source = pattern(pitch * height, 61);
    std::memcpy(pinned.get(), source.data(), source.size());

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    CHECK_ACL(aclrtMemcpy2dAsync(device.get(), width, pinned.get(), pitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(read_device(device.get(), width * height) == Bytes(width * height, 0));
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const Bytes copied = read_device(device.get(), width * height);
    for (std::size_t row = 0; row < height; ++row)
        CHECK(Bytes(copied.begin() + row * width, copied.begin() + (row + 1) * width) ==
              Bytes(source.begin() + row * pitch, source.begin() + row * pitch + width));
}

TEST_CASE("aclrtMemcpy2dAsync from pageable memory completes before it returns") {
    Runtime rt;
    constexpr std::size_t width = 4, height = 4, pitch = 8;
    Stream stream;
    DeviceBuffer device(width * height);
    Bytes source = pattern(pitch * height, 3);
    const Bytes sent = source;
    CHECK_ACL(aclrtMemcpy2dAsync(device.get(), width, source.data(), pitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    std::fill(source.begin(), source.end(), 0);
    const Bytes copied = read_device(device.get(), width * height);
    for (std::size_t row = 0; row < height; ++row)
        CHECK(Bytes(copied.begin() + row * width, copied.begin() + (row + 1) * width) ==
              Bytes(sent.begin() + row * pitch, sent.begin() + row * pitch + width));
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

// Skipped under ThreadSanitizer: the split copy hands its pieces to oneTBB workers through the
// uninstrumented libtbb, so TSan reports (falsely) a race on every piece, and reporting races over
// megabytes takes it tens of minutes.
TEST_CASE("large copies and memsets (split across workers) are exact" * doctest::skip(CANOPY_TEST_TSAN)) {
    Runtime rt;
    constexpr std::size_t n = std::size_t{9} << 20;  // above the 4 MiB parallel threshold
    DeviceBuffer a(n), b(n);
    Bytes source(n);
    std::iota(source.begin(), source.end(), 0);
    write_device(a.get(), source);
    CHECK_ACL(aclrtMemcpy(b.get(), n, a.get(), n, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(read_device(b.get(), n) == source);
    CHECK_ACL(aclrtMemset(b.get(), n, 0x5c, n));
    CHECK(read_device(b.get(), n) == Bytes(n, 0x5c));
}
