// Device attributes, status, utilization and resource limits: aclrtGetDeviceInfo,
// aclrtQueryDeviceStatus, aclrtGetDeviceUtilizationRate, aclrtGet/Set/ResetDeviceResLimit,
// aclrtGetResInCurrentThread, aclrtDeviceGetBareTgid. A vector-core limit caps how many blocks of a
// launch run at once.
#include <unistd.h>

#include <thread>

#include "runtime_kernels.h"
#include "support.h"

using namespace canopy_test;

TEST_CASE("aclrtGetDeviceInfo reports the modelled part and the configuration") {
    ConfiguredRuntime rt(2, 1, 256);
    int64_t value = -1;
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
    CHECK(value == 40);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
    CHECK(value == 20);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
    CHECK(value == 20);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &value));
    CHECK(value == 192 * 1024);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value));
    CHECK(value == int64_t{256} << 20);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &value));
    CHECK(value == 2201);

    CHECK_ACL_CODE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(7777), &value), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("7777") != std::string::npos);
    CHECK_ACL_CODE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_CASE("aclrtQueryDeviceStatus: a device stays normal, also after a kernel fault") {
    Runtime rt;
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
    CHECK_ACL(aclrtQueryDeviceStatus(0, &status));
    CHECK(status == ACL_RT_DEVICE_STATUS_NORMAL);
    REQUIRE_ACL(launch_always_faulting(1, nullptr));
    CHECK_ACL_CODE(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_ACL(aclrtQueryDeviceStatus(0, &status));
    CHECK(status == ACL_RT_DEVICE_STATUS_NORMAL);
    CHECK_ACL_CODE(aclrtQueryDeviceStatus(0, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtQueryDeviceStatus(3, &status), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_CASE("aclrtGetDeviceUtilizationRate sees the workers that run kernel blocks") {
    ConfiguredRuntime rt(2);
    aclrtUtilizationInfo info{};
    CHECK_ACL(aclrtGetDeviceUtilizationRate(0, &info));
    CHECK(info.vectorUtilization == 0);
    CHECK(info.aicpuUtilization == -1);

    Hold hold;
    REQUIRE_ACL(launch_holding(1, nullptr, &hold));
    REQUIRE(eventually([&] { return hold.entered.load() == 1; }));
    CHECK_ACL(aclrtGetDeviceUtilizationRate(0, &info));
    CHECK(info.vectorUtilization == 50);  // one of two workers
    CHECK(info.cubeUtilization == 50);
    hold.released = true;
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK_ACL(aclrtGetDeviceUtilizationRate(0, &info));
    CHECK(info.vectorUtilization == 0);

    void* memory = nullptr;
    REQUIRE_ACL(aclrtMalloc(&memory, 128u << 20, ACL_MEM_MALLOC_HUGE_FIRST));  // half of 256 MiB
    CHECK_ACL(aclrtGetDeviceUtilizationRate(0, &info));
    CHECK(info.memoryUtilization == 50);
    CHECK_ACL(aclrtFree(memory));

    CHECK_ACL_CODE(aclrtGetDeviceUtilizationRate(0, nullptr), ACL_ERROR_INVALID_PARAM);
    info.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&info);
    CHECK_ACL_CODE(aclrtGetDeviceUtilizationRate(0, &info), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("device resource limits: get, set, reset and the thread's view") {
    Runtime rt;
    uint32_t value = 0;
    CHECK_ACL(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 40);
    CHECK_ACL(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value));
    CHECK(value == 20);
    CHECK_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 3));
    CHECK_ACL(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 3);
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 3);
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value));
    CHECK(value == 20);
    CHECK_ACL(aclrtResetDeviceResLimit(0));
    CHECK_ACL(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 40);

    CHECK_ACL_CODE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 41), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(9), 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceResLimit(5, ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, nullptr), ACL_ERROR_INVALID_PARAM);
    std::thread([] {
        uint32_t seen = 0;
        CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &seen) == ACL_ERROR_RT_CONTEXT_NULL);
    }).join();
}

TEST_CASE("a vector-core limit caps the number of blocks of a launch that run at once") {
    ConfiguredRuntime rt(4);
    for (uint32_t limit : {1u, 2u}) {
        CAPTURE(limit);
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, limit));
        ConcurrencyProbe probe;
        probe.wanted = 4;  // blocks would wait for company the limit does not allow
        REQUIRE_ACL(launch_concurrency_probe(32, nullptr, &probe));
        REQUIRE_ACL(aclrtSynchronizeStream(nullptr));
        CHECK(probe.blocks_done.load() == 32);
        CHECK(probe.max_running.load() >= 1);
        CHECK(probe.max_running.load() <= limit);
    }
    REQUIRE_ACL(aclrtResetDeviceResLimit(0));
    ConcurrencyProbe probe;
    REQUIRE_ACL(launch_concurrency_probe(32, nullptr, &probe));
    REQUIRE_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(probe.blocks_done.load() == 32);
}

TEST_CASE("aclrtDeviceGetBareTgid returns the process id") {
    int32_t pid = 0;
    CHECK_ACL(aclrtDeviceGetBareTgid(&pid));
    CHECK(pid == static_cast<int32_t>(::getpid()));
    CHECK_ACL_CODE(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM);
}
