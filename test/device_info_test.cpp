// Device attributes, status, utilization and resource limits: aclrtGetDeviceInfo,
// aclrtQueryDeviceStatus, aclrtGetDeviceUtilizationRate, aclrtGet/Set/ResetDeviceResLimit,
// aclrtGetResInCurrentThread, aclrtDeviceGetBareTgid, the stream-level limits
// (aclrtGet/Set/ResetStreamResLimit, aclrtUse/UnuseStreamResInCurrentThread). Core limits cap how
// many blocks of a launch run at once: vector cores for __vector__ kernels, cube cores for
// __cube__ ones, both for __mix__ ones; a stream's own limit takes precedence over the device's.
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

// concurrency_probe's body in a __cube__ kernel and a __mix__(1, 2) one, registered here with their
// cores as the kernel compiler would for those qualifiers. A mix block runs its AIC and two AIVs one
// after another on one thread, so `running` counts blocks in flight there too.
extern "C" __global__ __aicore__ void cube_concurrency_probe(ConcurrencyProbe* probe) { run_concurrency_probe(probe); }
extern "C" __global__ __aicore__ void mix_concurrency_probe(ConcurrencyProbe* probe) { run_concurrency_probe(probe); }
CANOPY_REGISTER_KERNEL(cube_concurrency_probe);
CANOPY_KERNEL_CORES(cube_concurrency_probe, 1, 0, false);
CANOPY_REGISTER_KERNEL(mix_concurrency_probe);
CANOPY_KERNEL_CORES(mix_concurrency_probe, 1, 2, true);

namespace {
// The most blocks of one 32-block launch of `kernel` on `stream` that ran at once.
template <class Launch>
uint32_t peak_blocks(aclrtStream stream, Launch launch, uint32_t cores_per_block = 1) {
    ConcurrencyProbe probe;
    probe.wanted = 8;  // blocks wait for company the limit does not allow
    REQUIRE(launch(32, stream, &probe) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(probe.blocks_done.load() == 32 * cores_per_block);
    CHECK(probe.max_running.load() >= 1);
    return probe.max_running.load();
}

uint32_t launch_cube_probe(uint32_t blocks, void* stream, ConcurrencyProbe* probe) {
    return ACLRT_LAUNCH_KERNEL(cube_concurrency_probe)(blocks, stream, probe);
}
uint32_t launch_mix_probe(uint32_t blocks, void* stream, ConcurrencyProbe* probe) {
    return ACLRT_LAUNCH_KERNEL(mix_concurrency_probe)(blocks, stream, probe);
}
}  // namespace

TEST_CASE("a cube-core limit caps __cube__ and __mix__ launches; a vector-core limit leaves __cube__ ones alone") {
    ConfiguredRuntime rt(6);
    SUBCASE("cube kernels") {
        for (uint32_t limit : {1u, 2u}) {
            CAPTURE(limit);
            REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, limit));
            CHECK(peak_blocks(nullptr, launch_cube_probe) <= limit);
        }
    }
    SUBCASE("a vector limit does not apply to a kernel without AIVs") {
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3));
        CHECK(peak_blocks(nullptr, launch_cube_probe) <= 3);
    }
    SUBCASE("mix kernels: a block takes one cube core and two vector cores") {
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1));
        CHECK(peak_blocks(nullptr, launch_mix_probe, 3) <= 1);
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3));
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 4));  // room for two blocks' AIVs
        CHECK(peak_blocks(nullptr, launch_mix_probe, 3) <= 2);
    }
    REQUIRE_ACL(aclrtResetDeviceResLimit(0));
    peak_blocks(nullptr, launch_cube_probe);
}

TEST_CASE("stream resource limits: a stream's own limit caps its launches and takes precedence over the device's") {
    ConfiguredRuntime rt(6);
    Stream limited;
    Stream other;
    uint32_t value = 0;
    CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 40);  // nothing set: the hardware's
    REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 5));
    CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, &value));
    CHECK(value == 5);  // the device's

    REQUIRE_ACL(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, 1));
    REQUIRE_ACL(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, 2));
    CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 1);
    CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, &value));
    CHECK(value == 2);
    CHECK(peak_blocks(limited, launch_concurrency_probe) <= 1);
    CHECK(peak_blocks(limited, launch_cube_probe) <= 2);
    CHECK(peak_blocks(limited, launch_mix_probe, 3) <= 1);  // two AIVs need more than one vector core: one block
    CHECK(peak_blocks(other, launch_cube_probe) <= 5);      // the device's limit there

    SUBCASE("the stream's limit wins over a lower device limit") {
        REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
        REQUIRE_ACL(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, 3));
        CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, &value));
        CHECK(value == 3);
        CHECK(peak_blocks(limited, launch_concurrency_probe) <= 3);
        CHECK(peak_blocks(other, launch_concurrency_probe) <= 1);
    }
    SUBCASE("a limit applies to launches enqueued after it is set, not to those already queued") {
        Gate gate;
        REQUIRE_ACL(gate.hold(limited));
        ConcurrencyProbe probe;
        probe.wanted = 8;
        REQUIRE(launch_concurrency_probe(32, limited, &probe) == 0u);
        REQUIRE_ACL(aclrtResetStreamResLimit(limited));
        gate.open();
        REQUIRE_ACL(aclrtSynchronizeStream(limited));
        CHECK(probe.blocks_done.load() == 32);
        CHECK(probe.max_running.load() <= 1);
        CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, &value));
        CHECK(value == 40);
    }
    SUBCASE("aclrtResetStreamResLimit returns the stream to the device's limits") {
        REQUIRE_ACL(aclrtResetStreamResLimit(limited));
        CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, &value));
        CHECK(value == 5);
        CHECK_ACL(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, &value));
        CHECK(value == 40);
    }
    SUBCASE("NULL is the default stream") {
        REQUIRE_ACL(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_VECTOR_CORE, 2));
        CHECK_ACL(aclrtGetStreamResLimit(nullptr, ACL_RT_DEV_RES_VECTOR_CORE, &value));
        CHECK(value == 2);
        CHECK(peak_blocks(nullptr, launch_concurrency_probe) <= 2);
        REQUIRE_ACL(aclrtResetStreamResLimit(nullptr));
    }
    SUBCASE("argument checks") {
        CHECK_ACL_CODE(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, 0), ACL_ERROR_INVALID_PARAM);
        CHECK_ACL_CODE(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, 41), ACL_ERROR_INVALID_PARAM);
        CHECK_ACL_CODE(aclrtSetStreamResLimit(limited, ACL_RT_DEV_RES_CUBE_CORE, 21), ACL_ERROR_INVALID_PARAM);
        CHECK(recent_error().find("value 21") != std::string::npos);
        CHECK_ACL_CODE(aclrtSetStreamResLimit(limited, static_cast<aclrtDevResLimitType>(9), 1), ACL_ERROR_INVALID_PARAM);
        CHECK_ACL_CODE(aclrtGetStreamResLimit(limited, ACL_RT_DEV_RES_VECTOR_CORE, nullptr), ACL_ERROR_INVALID_PARAM);
        CHECK_ACL_CODE(aclrtGetStreamResLimit(reinterpret_cast<aclrtStream>(0x1234), ACL_RT_DEV_RES_VECTOR_CORE, &value),
                       ACL_ERROR_RT_INVALID_HANDLE);
        CHECK_ACL_CODE(aclrtResetStreamResLimit(reinterpret_cast<aclrtStream>(0x1234)), ACL_ERROR_RT_INVALID_HANDLE);
        CHECK_ACL_CODE(aclrtUseStreamResInCurrentThread(reinterpret_cast<aclrtStream>(0x1234)), ACL_ERROR_RT_INVALID_HANDLE);
    }
    REQUIRE_ACL(aclrtResetDeviceResLimit(0));
}

TEST_CASE("aclrtUseStreamResInCurrentThread: the thread's view follows the stream's limits until aclrtUnuse") {
    ConfiguredRuntime rt(2);
    Stream stream;
    uint32_t value = 0;
    REQUIRE_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 8));
    REQUIRE_ACL(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 12));
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 8);
    CHECK_ACL(aclrtUseStreamResInCurrentThread(stream));
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 12);  // stream > device > hardware
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &value));
    CHECK(value == 20);  // the stream sets no cube limit, nor the device
    std::thread([] {
        // Another thread of the same context does not use the stream's limits.
        uint32_t seen = 0;
        CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &seen) == ACL_ERROR_RT_CONTEXT_NULL);
    }).join();
    CHECK_ACL(aclrtUnuseStreamResInCurrentThread(stream));
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 8);

    // A used stream that is destroyed leaves the thread with the device's limits.
    aclrtStream doomed = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&doomed));
    REQUIRE_ACL(aclrtSetStreamResLimit(doomed, ACL_RT_DEV_RES_VECTOR_CORE, 3));
    CHECK_ACL(aclrtUseStreamResInCurrentThread(doomed));
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 3);
    REQUIRE_ACL(aclrtDestroyStream(doomed));
    CHECK_ACL(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value));
    CHECK(value == 8);
    CHECK_ACL(aclrtUnuseStreamResInCurrentThread(nullptr));
    REQUIRE_ACL(aclrtResetDeviceResLimit(0));
}

TEST_CASE("aclrtDeviceGetBareTgid returns the process id") {
    int32_t pid = 0;
    CHECK_ACL(aclrtDeviceGetBareTgid(&pid));
    CHECK(pid == static_cast<int32_t>(::getpid()));
    CHECK_ACL_CODE(aclrtDeviceGetBareTgid(nullptr), ACL_ERROR_INVALID_PARAM);
}
