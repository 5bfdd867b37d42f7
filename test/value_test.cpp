// Stream value write and wait: aclrtValueWrite, aclrtValueWait. A wait releases when another
// stream writes the value, and occupies no thread meanwhile.
#include "support.h"

using namespace canopy_test;

namespace {
struct DeviceValue {
    DeviceValue() { REQUIRE_ACL(aclrtMalloc(&pointer, 64, ACL_MEM_MALLOC_HUGE_FIRST)); }
    ~DeviceValue() { aclrtFree(pointer); }
    void set(uint64_t value) { REQUIRE_ACL(aclrtMemcpy(pointer, 8, &value, 8, ACL_MEMCPY_HOST_TO_DEVICE)); }
    uint64_t get() {
        uint64_t value = 0;
        CHECK_ACL(aclrtMemcpy(&value, 8, pointer, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        return value;
    }
    void* pointer = nullptr;
};

bool busy(aclrtStream stream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    return status == ACL_STREAM_STATUS_NOT_READY;
}
}  // namespace

TEST_CASE("a value wait releases when another stream writes the value") {
    Runtime runtime;
    Stream waiter, writer;
    DeviceValue value;
    value.set(0);
    std::atomic<int> after{0};
    REQUIRE_ACL(aclrtValueWait(value.pointer, 7, ACL_STREAM_WAIT_VALUE_EQ, waiter));
    REQUIRE_ACL(launch_increment(waiter, after));
    CHECK(busy(waiter));
    // A write of another value does not release it.
    REQUIRE_ACL(aclrtValueWrite(value.pointer, 6, 0, writer));
    REQUIRE_ACL(aclrtSynchronizeStream(writer));
    CHECK(value.get() == 6);
    CHECK(busy(waiter));
    CHECK(after.load() == 0);
    REQUIRE_ACL(aclrtValueWrite(value.pointer, 7, 0, writer));
    REQUIRE_ACL(aclrtSynchronizeStream(waiter));
    CHECK(after.load() == 1);
    CHECK(value.get() == 7);
}

TEST_CASE("a wait whose condition already holds passes at once, in every mode") {
    Runtime runtime;
    Stream stream;
    DeviceValue value;
    value.set(5);
    REQUIRE_ACL(aclrtValueWait(value.pointer, 3, ACL_STREAM_WAIT_VALUE_GEQ, stream));
    REQUIRE_ACL(aclrtValueWait(value.pointer, 5, ACL_STREAM_WAIT_VALUE_GEQ, stream));
    REQUIRE_ACL(aclrtValueWait(value.pointer, 5, ACL_STREAM_WAIT_VALUE_EQ, stream));
    REQUIRE_ACL(aclrtValueWait(value.pointer, 4, ACL_STREAM_WAIT_VALUE_AND, stream));
    REQUIRE_ACL(aclrtValueWait(value.pointer, 0, ACL_STREAM_WAIT_VALUE_NOR, stream));
    // GEQ compares (int64_t)(current - value): 5 - 2^64+1 wraps to 4.
    REQUIRE_ACL(aclrtValueWait(value.pointer, UINT64_MAX, ACL_STREAM_WAIT_VALUE_GEQ, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("each mode blocks until a write satisfies it") {
    struct Case {
        uint32_t mode;
        uint64_t expected;
        uint64_t unsatisfying;
        uint64_t satisfying;
    };
    const Case cases[] = {
        {ACL_STREAM_WAIT_VALUE_GEQ, 10, 9, 11},
        {ACL_STREAM_WAIT_VALUE_EQ, 10, 11, 10},
        {ACL_STREAM_WAIT_VALUE_AND, 0x10, 0x0f, 0x30},
        {ACL_STREAM_WAIT_VALUE_NOR, ~uint64_t{0x3}, 0x3, 0x1},  // ~(v | expected) != 0
    };
    Runtime runtime;
    Stream waiter, writer;
    for (const Case& test : cases) {
        CAPTURE(test.mode);
        DeviceValue value;
        value.set(test.unsatisfying);
        std::atomic<int> after{0};
        REQUIRE_ACL(aclrtValueWait(value.pointer, test.expected, test.mode, waiter));
        REQUIRE_ACL(launch_increment(waiter, after));
        CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(waiter, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        CHECK(after.load() == 0);
        REQUIRE_ACL(aclrtValueWrite(value.pointer, test.satisfying, 0, writer));
        REQUIRE_ACL(aclrtSynchronizeStream(waiter));
        CHECK(after.load() == 1);
    }
}

TEST_CASE("value waits hold no worker: one worker still runs the write that releases them") {
    ConfiguredRuntime runtime(1);
    DeviceValue value;
    value.set(0);
    Stream waiters[4];
    std::atomic<int> released{0};
    for (int i = 0; i < 4; ++i) {
        REQUIRE_ACL(aclrtValueWait(value.pointer, static_cast<uint64_t>(i + 1), ACL_STREAM_WAIT_VALUE_GEQ, waiters[i]));
        REQUIRE_ACL(launch_increment(waiters[i], released));
    }
    Stream writer;
    std::atomic<int> ran{0};
    REQUIRE_ACL(launch_increment(writer, ran));
    REQUIRE_ACL(aclrtValueWrite(value.pointer, 2, 0, writer));
    REQUIRE_ACL(aclrtSynchronizeStream(writer));
    CHECK(ran.load() == 1);
    REQUIRE_ACL(aclrtSynchronizeStream(waiters[0]));
    REQUIRE_ACL(aclrtSynchronizeStream(waiters[1]));
    CHECK(busy(waiters[2]));
    REQUIRE_ACL(aclrtValueWrite(value.pointer, 4, 0, writer));
    REQUIRE_ACL(aclrtSynchronizeStream(waiters[2]));
    REQUIRE_ACL(aclrtSynchronizeStream(waiters[3]));
    CHECK(released.load() == 4);
}

TEST_CASE("value write and wait check their arguments") {
    Runtime runtime;
    Stream stream;
    DeviceValue value;
    uint64_t host = 0;
    auto* bytes = static_cast<char*>(value.pointer);
    CHECK_ACL_CODE(aclrtValueWrite(nullptr, 1, 0, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWrite(bytes + 4, 1, 0, stream), ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclGetRecentErrMsg()).find("not 8-byte aligned") != std::string::npos);
    CHECK_ACL_CODE(aclrtValueWrite(&host, 1, 0, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWrite(bytes + 64, 1, 0, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWrite(value.pointer, 1, 1, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWait(value.pointer, 1, 4, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWait(nullptr, 1, 0, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtValueWait(value.pointer, 1, 0, reinterpret_cast<aclrtStream>(0x77)), ACL_ERROR_RT_INVALID_HANDLE);
    // The default stream (NULL) is accepted.
    REQUIRE_ACL(aclrtValueWrite(value.pointer, 3, 0, nullptr));
    REQUIRE_ACL(aclrtValueWait(value.pointer, 3, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(nullptr));
}

TEST_CASE("resetting the device fails waits that nothing will release, instead of hanging") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    void* value = nullptr;
    REQUIRE_ACL(aclrtMalloc(&value, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemset(value, 8, 0, 8));
    REQUIRE_ACL(aclrtValueWait(value, 1, ACL_STREAM_WAIT_VALUE_EQ, stream));
    aclrtNotify notify = nullptr;
    REQUIRE_ACL(aclrtCreateNotify(&notify, 0));
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, nullptr, 0));
    REQUIRE_ACL(aclrtResetDeviceForce(0));
}

TEST_CASE("aclFinalize fails waits that nothing will release, instead of hanging") {
    REQUIRE_ACL(aclInit(nullptr));
    REQUIRE_ACL(aclrtSetDevice(0));
    void* value = nullptr;
    REQUIRE_ACL(aclrtMalloc(&value, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemset(value, 8, 0, 8));
    REQUIRE_ACL(aclrtValueWait(value, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
    REQUIRE_ACL(aclFinalize());
}
