// In-process notifies: aclrtCreateNotify, aclrtRecordNotify, aclrtWaitAndResetNotify,
// aclrtGetNotifyId, aclrtDestroyNotify. A notify orders two streams; a wait occupies no thread.
#include "support.h"

using namespace canopy_test;

namespace {
struct Notify {
    Notify() { REQUIRE_ACL(aclrtCreateNotify(&handle, ACL_NOTIFY_DEFAULT)); }
    ~Notify() { aclrtDestroyNotify(handle); }
    operator aclrtNotify() const { return handle; }
    aclrtNotify handle = nullptr;
};

aclrtStreamStatus status(aclrtStream stream) {
    aclrtStreamStatus result = ACL_STREAM_STATUS_RESERVED;
    CHECK_ACL(aclrtStreamQuery(stream, &result));
    return result;
}
}  // namespace

TEST_CASE("a notify orders two streams: the waiting stream goes on after the record") {
    Runtime runtime;
    Stream recorder, waiter;
    Notify notify;
    Gate gate;
    std::atomic<int> after_wait{0};
    REQUIRE_ACL(gate.hold(recorder));
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    // Enqueued after the record call but waiting for the record to run.
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, waiter, 0));
    REQUIRE_ACL(launch_increment(waiter, after_wait));
    REQUIRE(gate.wait_entered());
    CHECK(status(waiter) == ACL_STREAM_STATUS_NOT_READY);
    CHECK(after_wait.load() == 0);
    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(waiter));
    CHECK(after_wait.load() == 1);
}

TEST_CASE("a wait enqueued before any record waits for the next record") {
    Runtime runtime;
    Stream recorder, waiter;
    Notify notify;
    std::atomic<int> after_wait{0};
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, waiter, 0));
    REQUIRE_ACL(launch_increment(waiter, after_wait));
    CHECK(status(waiter) == ACL_STREAM_STATUS_NOT_READY);
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(waiter, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(after_wait.load() == 0);
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    REQUIRE_ACL(aclrtSynchronizeStream(waiter));
    CHECK(after_wait.load() == 1);
}

TEST_CASE("each record releases one wait, which resets the notify") {
    Runtime runtime;
    Stream recorder, first, second;
    Notify notify;
    std::atomic<int> released{0};
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, first, 0));
    REQUIRE_ACL(launch_increment(first, released));
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, second, 0));
    REQUIRE_ACL(launch_increment(second, released));
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    REQUIRE_ACL(aclrtSynchronizeStream(recorder));
    REQUIRE(eventually([&] { return released.load() == 1; }));
    // One stream is done and the other still waits.
    CHECK(eventually([&] {
        return (status(first) == ACL_STREAM_STATUS_NOT_READY) != (status(second) == ACL_STREAM_STATUS_NOT_READY);
    }));
    CHECK(released.load() == 1);
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    REQUIRE_ACL(aclrtSynchronizeStream(first));
    REQUIRE_ACL(aclrtSynchronizeStream(second));
    CHECK(released.load() == 2);
    // A record with no waiter leaves the notify set: the next wait passes at once.
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    REQUIRE_ACL(aclrtSynchronizeStream(recorder));
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, first, 0));
    REQUIRE_ACL(aclrtSynchronizeStream(first));
}

TEST_CASE("waiting streams hold no worker: one worker still runs other streams' work") {
    ConfiguredRuntime runtime(1);
    // One notify per waiter: a notify is one bit, so records that no wait has consumed yet merge.
    Notify notifies[4];
    Stream waiters[4];
    std::atomic<int> released{0};
    for (int i = 0; i < 4; ++i) {
        REQUIRE_ACL(aclrtWaitAndResetNotify(notifies[i], waiters[i], 0));
        REQUIRE_ACL(launch_increment(waiters[i], released));
    }
    Stream other;
    std::atomic<int> ran{0};
    for (int i = 0; i < 8; ++i) REQUIRE_ACL(launch_increment(other, ran));
    REQUIRE_ACL(aclrtSynchronizeStream(other));
    CHECK(ran.load() == 8);
    CHECK(released.load() == 0);
    for (Notify& notify : notifies) REQUIRE_ACL(aclrtRecordNotify(notify, other));
    for (Stream& waiter : waiters) REQUIRE_ACL(aclrtSynchronizeStream(waiter));
    CHECK(released.load() == 4);
}

TEST_CASE("a wait that times out fails its stream with ACL_ERROR_RT_WAIT_TIMEOUT") {
    Runtime runtime;
    Stream waiter;
    Notify notify;
    std::atomic<int> after{0};
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, waiter, 1));
    REQUIRE_ACL(launch_increment(waiter, after));
    CHECK_ACL_CODE(aclrtSynchronizeStream(waiter), ACL_ERROR_RT_WAIT_TIMEOUT);
    CHECK(std::string(aclGetRecentErrMsg()).find("was not recorded within 1 s") != std::string::npos);
    CHECK(after.load() == 1);  // ACL_CONTINUE_ON_FAILURE: the stream goes on
}

TEST_CASE("notify calls check their arguments and handles") {
    Runtime runtime;
    Stream stream;
    aclrtNotify notify = nullptr;
    CHECK_ACL_CODE(aclrtCreateNotify(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateNotify(&notify, 2), ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclGetRecentErrMsg()).find("aclrtCreateNotify: flag 2") != std::string::npos);
    REQUIRE_ACL(aclrtCreateNotify(&notify, ACL_NOTIFY_DEVICE_USE_ONLY));
    uint32_t id = 99999;
    CHECK_ACL(aclrtGetNotifyId(notify, &id));
    CHECK(id < 99999);
    CHECK_ACL_CODE(aclrtGetNotifyId(notify, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRecordNotify(nullptr, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtWaitAndResetNotify(nullptr, stream, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRecordNotify(notify, reinterpret_cast<aclrtStream>(0x1234)), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtDestroyNotify(notify));
    CHECK_ACL_CODE(aclrtDestroyNotify(notify), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtRecordNotify(notify, stream), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtWaitAndResetNotify(reinterpret_cast<aclrtNotify>(0x99), stream, 0), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtDestroyNotify(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("notify calls need aclInit") {
    aclrtNotify notify = nullptr;
    CHECK_ACL_CODE(aclrtCreateNotify(&notify, 0), ACL_ERROR_UNINITIALIZE);
}
