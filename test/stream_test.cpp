// Streams: creation with priority and flags, queries, synchronization with timeouts, destruction
// and the failure-mode setting.
#include <climits>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

TEST_CASE("aclrtCreateStream makes a stream of priority 0 without flags") {
    Runtime rt;
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE(stream != nullptr);
    uint32_t priority = 99, flags = 99;
    CHECK_ACL(aclrtStreamGetPriority(stream, &priority));
    CHECK(priority == 0);
    CHECK_ACL(aclrtStreamGetFlags(stream, &flags));
    CHECK(flags == 0);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL_CODE(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtCreateStreamWithConfig keeps the priority and flags, and clamps the priority to 7") {
    Runtime rt;
    struct Case {
        uint32_t requested, expected;
    };
    for (Case c : {Case{0, 0}, Case{3, 3}, Case{7, 7}, Case{8, 7}, Case{1000, 7}, Case{UINT32_MAX, 7}}) {
        CAPTURE(c.requested);
        Stream stream(c.requested, 0);
        uint32_t priority = 99;
        CHECK_ACL(aclrtStreamGetPriority(stream, &priority));
        CHECK(priority == c.expected);
    }

    const uint32_t all_flags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT |
                               ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
    for (uint32_t flags : {ACL_STREAM_FAST_LAUNCH, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC, all_flags}) {
        CAPTURE(flags);
        Stream stream(2, flags);
        uint32_t got = 0;
        CHECK_ACL(aclrtStreamGetFlags(stream, &got));
        CHECK(got == flags);
    }
}

TEST_CASE("aclrtCreateStreamWithConfig rejects unknown flag bits and a NULL out-pointer") {
    Runtime rt;
    aclrtStream stream = nullptr;
    CHECK_ACL_CODE(aclrtCreateStreamWithConfig(&stream, 0, 0x40), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateStreamWithConfig(&stream, 0, 0x80000000u), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("the stream priority range is least 7, greatest 0") {
    Runtime rt;
    int32_t least = -1, greatest = -1;
    CHECK_ACL(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK(least == 7);
    CHECK(greatest == 0);
    CHECK_ACL_CODE(aclrtDeviceGetStreamPriorityRange(nullptr, &greatest), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDeviceGetStreamPriorityRange(&least, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("priority and flag queries on the NULL stream describe the default stream") {
    Runtime rt;
    uint32_t priority = 99, flags = 99;
    CHECK_ACL(aclrtStreamGetPriority(nullptr, &priority));
    CHECK(priority == 0);
    CHECK_ACL(aclrtStreamGetFlags(nullptr, &flags));
    CHECK(flags == 0);
    Stream stream;
    CHECK_ACL_CODE(aclrtStreamGetPriority(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtStreamGetFlags(stream, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtStreamQuery answers NOT_READY while work is pending and COMPLETE after it ran") {
    Runtime rt;
    Stream stream;
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);  // a new stream is idle

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_NOT_READY);

    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);
    CHECK_ACL_CODE(aclrtStreamQuery(stream, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtSynchronizeStream waits for every operation enqueued before it") {
    Runtime rt;
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 1000; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    // Opened by another thread once the gate is reached, while this thread may already wait.
    std::thread opener([&] {
        gate.wait_entered();
        gate.open();
    });
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 1000);
    opener.join();
}

TEST_CASE("aclrtSynchronizeStreamWithTimeout: 0 checks, positive waits, expiry is 507046, -1 waits forever") {
    Runtime rt;
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(launch_increment(stream, counter));

    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(counter == 0);

    gate.open();
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, -1));
    CHECK(counter == 1);
    // Idle: every timeout succeeds at once.
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, 0));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, 1000));

    // A positive timeout long enough for the work succeeds.
    REQUIRE_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(counter == 2);
}

TEST_CASE("aclrtSynchronizeStreamWithTimeout below -1 is ACL_ERROR_RT_PARAM_INVALID") {
    Runtime rt;
    Stream stream;
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(nullptr, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_CASE("aclrtDestroyStream waits for the stream's pending work") {
    Runtime rt;
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 1000; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    // The gate is opened from another thread; whether before or after the destroy begins, the
    // destroy must not return before all 1000 increments have run.
    std::thread opener([&] {
        gate.wait_entered();
        gate.open();
    });
    CHECK_ACL(aclrtDestroyStream(stream.release()));
    CHECK(counter == 1000);
    opener.join();
}

TEST_CASE("aclrtDestroyStreamForce may discard queued work but completes event records and returns") {
    Runtime rt;
    Stream stream;
    Event event;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 1000; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE(gate.wait_entered());
    std::thread opener([&] { gate.open(); });
    const aclrtStream handle = stream.release();
    CHECK_ACL(aclrtDestroyStreamForce(handle));
    opener.join();

    CHECK(counter <= 1000);
    // The record is never discarded: whoever waits for the event is released.
    CHECK_ACL(aclrtSynchronizeEventWithTimeout(event, kBoundMs));
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(event, &status));
    CHECK(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    aclrtStreamStatus stream_status;
    CHECK_ACL_CODE(aclrtStreamQuery(handle, &stream_status), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_FALSE(gate.timed_out());
}

TEST_CASE("the default stream cannot be destroyed") {
    Runtime rt;
    aclrtStream default_stream = nullptr;
    REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&default_stream));
    CHECK(aclrtDestroyStream(default_stream) != ACL_SUCCESS);
    CHECK(aclrtDestroyStreamForce(default_stream) != ACL_SUCCESS);
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(default_stream, counter));
    CHECK_ACL(aclrtSynchronizeStream(default_stream));
    CHECK(counter == 1);
}

TEST_CASE("aclrtSetStreamFailureMode accepts the two modes on a stream or the NULL stream") {
    Runtime rt;
    Stream stream;
    CHECK_ACL(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    CHECK_ACL(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
    CHECK_ACL(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE));
    CHECK_ACL(aclrtSetStreamFailureMode(nullptr, ACL_CONTINUE_ON_FAILURE));
    CHECK_ACL_CODE(aclrtSetStreamFailureMode(stream, 2), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetStreamFailureMode(stream, UINT64_MAX), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("many streams can be created and destroyed") {
    Runtime rt;
    std::vector<aclrtStream> streams(200);
    std::atomic<int> counter{0};
    for (auto& stream : streams) {
        REQUIRE_ACL(aclrtCreateStream(&stream));
        REQUIRE_ACL(launch_increment(stream, counter));
    }
    for (auto stream : streams) CHECK_ACL(aclrtDestroyStream(stream));
    CHECK(counter == 200);
}
