// Registered host memory (aclrtHostRegister, aclrtHostRegisterV2, aclrtHostGetDevicePointer,
// aclrtHostUnregister) and managed memory (aclrtMemAllocManaged).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <future>
#include <vector>

#include "support.h"

using namespace canopy_test;

TEST_CASE("registered host memory maps to a device pointer that addresses the same bytes") {
    Runtime runtime;
    void* host = nullptr;
    REQUIRE_ACL(aclrtMallocHost(&host, 8192));
    REQUIRE_ACL(aclrtHostRegisterV2(host, 8192, ACL_HOST_REG_MAPPED));
    void* device = nullptr;
    REQUIRE_ACL(aclrtHostGetDevicePointer(host, &device, 0));
    REQUIRE(device != nullptr);
    // A stream operation on the device pointer is seen by the host (zero copy).
    Stream stream;
    REQUIRE_ACL(aclrtMemsetAsync(device, 8192, 0x5a, 8192, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(static_cast<unsigned char*>(host)[8191] == 0x5a);
    // Inside the range, the device pointer is at the same offset.
    void* inside = nullptr;
    REQUIRE_ACL(aclrtHostGetDevicePointer(static_cast<char*>(host) + 100, &inside, 0));
    CHECK(static_cast<char*>(inside) - static_cast<char*>(device) == 100);
    CHECK_ACL_CODE(aclrtHostRegisterV2(static_cast<char*>(host) + 4096, 16, ACL_HOST_REG_MAPPED),
                   ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CHECK_ACL_CODE(aclrtHostRegisterV2(host, 8192, ACL_HOST_REG_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    REQUIRE_ACL(aclrtHostUnregister(host));
    CHECK_ACL_CODE(aclrtHostUnregister(host), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK_ACL_CODE(aclrtHostGetDevicePointer(host, &device, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    REQUIRE_ACL(aclrtFreeHost(host));
}

TEST_CASE("aclrtHostRegister registers pageable memory and returns its device address") {
    Runtime runtime;
    void* host = std::aligned_alloc(4096, 4096);
    void* device = nullptr;
    REQUIRE_ACL(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, &device));
    CHECK(device == host);
    void* again = nullptr;
    REQUIRE_ACL(aclrtHostGetDevicePointer(host, &again, 0));
    CHECK(again == device);
    REQUIRE_ACL(aclrtHostUnregister(host));
    // Pinned only (not mapped): no device pointer.
    REQUIRE_ACL(aclrtHostRegisterV2(host, 4096, ACL_HOST_REG_PINNED));
    CHECK_ACL_CODE(aclrtHostGetDevicePointer(host, &again, 0), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtHostUnregister(host));
    std::free(host);
}

TEST_CASE("a copy from registered host memory is page-locked: it is queued, not waited for") {
    Runtime runtime;
    std::vector<float> host(4096, 1.5f);
    REQUIRE_ACL(aclrtHostRegisterV2(host.data(), host.size() * sizeof(float), ACL_HOST_REG_PINNED));
    DeviceArray<float> device(host.size());
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    // Pageable memory would be copied only once the stream drained, which the gate prevents.
    aclrtContext context = runtime.context();
    auto enqueued = std::async(std::launch::async, [&] {
        const aclError current = aclrtSetCurrentContext(context);
        if (current != ACL_SUCCESS) return current;
        return aclrtMemcpyAsync(device.get(), device.bytes(), host.data(), host.size() * sizeof(float),
                                ACL_MEMCPY_HOST_TO_DEVICE, stream);
    });
    const bool returned = enqueued.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    gate.open();
    REQUIRE(returned);
    REQUIRE_ACL(enqueued.get());
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(device.read() == host);
    REQUIRE_ACL(aclrtHostUnregister(host.data()));
}

TEST_CASE("host registration checks its arguments") {
    Runtime runtime;
    alignas(64) static char buffer[4096];
    void* device = nullptr;
    void* pinned = nullptr;
    REQUIRE_ACL(aclrtMallocHost(&pinned, 4096));
    CHECK_ACL_CODE(aclrtHostRegisterV2(nullptr, 16, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegisterV2(buffer, 0, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegisterV2(buffer, 16, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegisterV2(buffer, 16, 0x1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegisterV2(buffer, 16, ACL_HOST_REG_IOMEMORY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtHostRegisterV2(buffer, 16, ACL_HOST_REG_READONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtHostRegisterV2(pinned, 16, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegister(buffer, 16, ACL_HOST_REGISTER_MAPPED, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostRegister(buffer, 16, ACL_HOST_REGISTER_READONLY, &device), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtHostRegister(buffer, 16, static_cast<aclrtHostRegisterType>(1), &device), ACL_ERROR_INVALID_PARAM);
    void* device_memory = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device_memory, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL_CODE(aclrtHostRegisterV2(device_memory, 64, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostGetDevicePointer(nullptr, &device, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostGetDevicePointer(buffer, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostGetDevicePointer(buffer, &device, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtHostUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtFree(device_memory));
    REQUIRE_ACL(aclrtFreeHost(pinned));
}

TEST_CASE("managed memory is one address for host and device, freed with aclrtFree") {
    Runtime runtime;
    Stream stream;
    int32_t* managed = nullptr;
    REQUIRE_ACL(aclrtMemAllocManaged(reinterpret_cast<void**>(&managed), 1000, ACL_RT_MEM_ATTACH_GLOBAL));
    for (int i = 0; i < 250; ++i) managed[i] = i;  // written by the host directly
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpyAsync(device, 1000, managed, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    REQUIRE_ACL(aclrtMemsetAsync(managed, 1000, 0, 1000, stream));
    REQUIRE_ACL(aclrtMemcpyAsync(managed, 1000, device, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(managed[249] == 249);
    // Rounded up to 2 MiB: the whole granule belongs to the allocation.
    REQUIRE_ACL(aclrtMemset(managed, 2 << 20, 0, 2 << 20));
    REQUIRE_ACL(aclrtFree(managed));
    REQUIRE_ACL(aclrtFree(device));
    void* ptr = nullptr;
    CHECK_ACL_CODE(aclrtMemAllocManaged(nullptr, 16, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemAllocManaged(&ptr, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemAllocManaged(&ptr, 16, 0), ACL_ERROR_INVALID_PARAM);
}
