// Devices: aclrtSetDevice reference counting, reset, queries and device-wide synchronization.
#include <climits>
#include <cstring>
#include <string>

#include "support.h"

using namespace canopy_test;

TEST_CASE("aclrtSetDevice makes the device's default context current on the calling thread") {
    Initialized init;
    int32_t device = -1;
    CHECK_ACL_CODE(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtGetDevice(&device));
    CHECK(device == 0);
    aclrtContext context = nullptr;
    CHECK_ACL(aclrtGetCurrentContext(&context));
    CHECK(context != nullptr);

    // A second SetDevice reuses the same default context.
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtContext again = nullptr;
    CHECK_ACL(aclrtGetCurrentContext(&again));
    CHECK(again == context);
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclrtResetDevice(0));
}

TEST_CASE("aclrtSetDevice is counted: the device lives until the last aclrtResetDevice") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));

    CHECK_ACL(aclrtResetDevice(0));
    // One reference left: the device, its context and the stream are still there.
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);
    int32_t device = -1;
    CHECK_ACL(aclrtGetDevice(&device));

    CHECK_ACL(aclrtResetDevice(0));
    // The last reset destroyed the context: this thread has no current context any more.
    CHECK_ACL_CODE(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    // And the stream handle died with the device.
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL_CODE(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL(aclrtResetDevice(0));
}

TEST_CASE("aclrtResetDeviceForce releases every reference at once") {
    Initialized init;
    for (int i = 0; i < 3; ++i) REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    CHECK_ACL(aclrtResetDeviceForce(0));
    int32_t device = -1;
    CHECK_ACL_CODE(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStreamStatus status;
    CHECK_ACL_CODE(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL(aclrtResetDevice(0));
}

TEST_CASE("device ids out of range are ACL_ERROR_RT_INVALID_DEVICEID") {
    Initialized init;  // one device by default
    for (int32_t id : {-1, 1, 64, INT32_MAX, INT32_MIN}) {
        CAPTURE(id);
        CHECK_ACL_CODE(aclrtSetDevice(id), ACL_ERROR_RT_INVALID_DEVICEID);
        CHECK_ACL_CODE(aclrtResetDevice(id), ACL_ERROR_RT_INVALID_DEVICEID);
        CHECK_ACL_CODE(aclrtResetDeviceForce(id), ACL_ERROR_RT_INVALID_DEVICEID);
        aclrtContext context = nullptr;
        CHECK_ACL_CODE(aclrtCreateContext(&context, id), ACL_ERROR_RT_INVALID_DEVICEID);
    }
    CHECK(std::string(recent_error()).find("deviceId") != std::string::npos);
}

TEST_CASE("aclrtGetDeviceCount and aclrtGetDevice check their out-pointers") {
    Runtime rt;
    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 1);
    CHECK_ACL_CODE(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("each thread has its own current device") {
    ConfigFile file(R"({"canopy": {"device_count": 2}})");
    Initialized init(file.path());
    REQUIRE_ACL(aclrtSetDevice(1));
    int32_t other_thread_device = -1;
    aclError other_thread_rc = -1;
    std::thread([&] {
        other_thread_rc = aclrtSetDevice(0);
        aclrtGetDevice(&other_thread_device);
        aclrtResetDevice(0);
    }).join();
    CHECK(other_thread_rc == ACL_SUCCESS);
    CHECK(other_thread_device == 0);
    int32_t device = -1;
    CHECK_ACL(aclrtGetDevice(&device));
    CHECK(device == 1);
    CHECK_ACL(aclrtResetDevice(1));
}

TEST_CASE("aclrtGetRunMode is ACL_HOST and aclrtGetSocName names an Ascend part") {
    Runtime rt;
    aclrtRunMode mode = ACL_DEVICE;
    CHECK_ACL(aclrtGetRunMode(&mode));
    CHECK(mode == ACL_HOST);
    CHECK_ACL_CODE(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
    const char* soc = aclrtGetSocName();
    REQUIRE(soc != nullptr);
    CHECK(std::strncmp(soc, "Ascend", 6) == 0);
}

TEST_CASE("aclrtSynchronizeDevice waits for the work of every stream of the device") {
    ConfiguredRuntime rt(2);
    Stream first, second;
    Gate gate;
    std::atomic<int> a{0}, b{0}, c{0};
    REQUIRE_ACL(gate.hold(first));
    for (int i = 0; i < 100; ++i) {
        CHECK_ACL(launch_increment(first, a));
        CHECK_ACL(launch_increment(second, b));
        CHECK_ACL(launch_increment(nullptr, c));  // the default stream
    }
    REQUIRE(gate.wait_entered());
    // The gate holds `first`: checking only, or waiting a little, reports the timeout.
    CHECK_ACL_CODE(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_ACL_CODE(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(a == 0);

    gate.open();
    CHECK_ACL(aclrtSynchronizeDevice());
    CHECK(a == 100);
    CHECK(b == 100);
    CHECK(c == 100);
    CHECK_FALSE(gate.timed_out());
}

TEST_CASE("aclrtSynchronizeDeviceWithTimeout: -1 waits, 0 and positive succeed when idle, below -1 is 107000") {
    Runtime rt;
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeDeviceWithTimeout(-1));
    CHECK(counter == 1);
    CHECK_ACL(aclrtSynchronizeDeviceWithTimeout(0));
    CHECK_ACL(aclrtSynchronizeDeviceWithTimeout(1000));
    CHECK_ACL_CODE(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtSynchronizeDeviceWithTimeout(INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_CASE("device synchronization needs a current context") {
    Initialized init;
    CHECK_ACL_CODE(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_CASE("two devices have separate memory budgets") {
    ConfigFile file(R"({"canopy": {"device_count": 2, "device_memory_mb": 8}})");
    Initialized init(file.path());
    void* on_zero = nullptr;
    void* on_one = nullptr;
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtMalloc(&on_zero, size_t{6} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtSetDevice(1));
    CHECK_ACL(aclrtMalloc(&on_one, size_t{6} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtFree(on_one));
    CHECK_ACL(aclrtFree(on_zero));
    CHECK_ACL(aclrtResetDevice(1));
    CHECK_ACL(aclrtResetDevice(0));
}
