// Stream configuration and control through the C API: config handles and aclrtCreateStreamV2,
// aclrtStreamGetId, aclrtGetThreadLastTaskId, state callbacks, aclrtStreamStop / aclrtStreamAbort
// (their error table and what synchronize says afterwards) and aclrtDestroyStreamForce, which
// returns at once while the work already enqueued still runs. (How stop and abort treat running
// and queued work is tested on the engine: stream_abort_test.cpp.)
#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

TEST_CASE("a stream from a config handle has the handle's flags and priority") {
    Runtime rt;
    aclrtStreamConfigHandle* handle = aclrtCreateStreamConfigHandle();
    REQUIRE(handle != nullptr);
    const uint32_t flag = ACL_STREAM_FAST_LAUNCH;
    const uint32_t priority = 3;
    CHECK_ACL(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, &flag, sizeof flag));
    CHECK_ACL(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority));
    const uint64_t work_size = 4096;
    CHECK_ACL(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_WORK_SIZE, &work_size, sizeof work_size));
    CHECK(handle->workSize == 4096);

    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStreamV2(&stream, handle));
    uint32_t got = 0;
    CHECK_ACL(aclrtStreamGetFlags(stream, &got));
    CHECK(got == ACL_STREAM_FAST_LAUNCH);
    CHECK_ACL(aclrtStreamGetPriority(stream, &got));
    CHECK(got == 3);
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 1);
    CHECK_ACL(aclrtDestroyStream(stream));

    const uint16_t short_value = 1;
    CHECK_ACL_CODE(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, &short_value, sizeof short_value),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetStreamConfigOpt(handle, static_cast<aclrtStreamConfigAttr>(9), &flag, sizeof flag),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_FLAG, &flag, sizeof flag), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, nullptr, sizeof flag), ACL_ERROR_INVALID_PARAM);
    const uint32_t bad_flag = 0x4000;
    CHECK_ACL(aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, &bad_flag, sizeof bad_flag));
    CHECK_ACL_CODE(aclrtCreateStreamV2(&stream, handle), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateStreamV2(nullptr, handle), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateStreamV2(&stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclrtDestroyStreamConfigHandle(handle));
    CHECK_ACL_CODE(aclrtDestroyStreamConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("stream ids tell a device's streams apart; NULL is the default stream") {
    Runtime rt;
    Stream a, b;
    int32_t id_a = -1, id_b = -1, id_default = -1;
    CHECK_ACL(aclrtStreamGetId(a, &id_a));
    CHECK_ACL(aclrtStreamGetId(b, &id_b));
    CHECK_ACL(aclrtStreamGetId(nullptr, &id_default));
    CHECK(id_a != id_b);
    CHECK(id_a != id_default);
    CHECK(id_b != id_default);
    CHECK_ACL_CODE(aclrtStreamGetId(a, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtStreamGetId(reinterpret_cast<aclrtStream>(0x1234), &id_a), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("aclrtGetThreadLastTaskId counts the calling thread's enqueued operations") {
    Runtime rt;
    Stream stream;
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    uint32_t first = 0, second = 0;
    CHECK_ACL(aclrtGetThreadLastTaskId(&first));
    REQUIRE_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtGetThreadLastTaskId(&second));
    CHECK(second == first + 1);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL_CODE(aclrtGetThreadLastTaskId(nullptr), ACL_ERROR_INVALID_PARAM);
}

namespace {
struct StateLog {
    std::mutex mutex;
    std::vector<std::pair<aclrtStream, aclrtStreamState>> events;
};
void log_state(aclrtStream stream, aclrtStreamState state, void* args) {
    auto* log = static_cast<StateLog*>(args);
    std::lock_guard lock(log->mutex);
    log->events.emplace_back(stream, state);
}
}  // namespace

TEST_CASE("stream state callbacks see creations and destructions, default streams included") {
    Initialized init;
    StateLog log;
    REQUIRE_ACL(aclrtRegStreamStateCallback("stream_control_test", &log_state, &log));
    CHECK_ACL_CODE(aclrtRegStreamStateCallback("stream_control_test", &log_state, &log), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream default_stream = nullptr;
    REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&default_stream));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtDestroyStream(stream));
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclrtRegStreamStateCallback("stream_control_test", nullptr, nullptr));
    REQUIRE_ACL(aclrtSetDevice(0));  // no callback any more
    REQUIRE_ACL(aclrtResetDevice(0));

    std::lock_guard lock(log.mutex);
    REQUIRE(log.events.size() == 4);
    CHECK(log.events[0] == std::make_pair(default_stream, ACL_RT_STREAM_STATE_CREATE_POST));
    CHECK(log.events[1] == std::make_pair(stream, ACL_RT_STREAM_STATE_CREATE_POST));
    CHECK(log.events[2] == std::make_pair(stream, ACL_RT_STREAM_STATE_DESTROY_PRE));
    CHECK(log.events[3] == std::make_pair(default_stream, ACL_RT_STREAM_STATE_DESTROY_PRE));
    CHECK_ACL_CODE(aclrtRegStreamStateCallback(nullptr, &log_state, &log), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRegStreamStateCallback("", &log_state, &log), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("after aclrtStreamAbort the next synchronize says so, once") {
    Runtime rt;
    Stream stream;
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtStreamAbort(stream));
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_STREAM_ABORT);
    CHECK(recent_error().find("aclrtStreamAbort") != std::string::npos);
    CHECK(recent_error().find("0 queued") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    REQUIRE_ACL(launch_increment(stream, counter));  // the stream works again
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 2);
    CHECK_ACL_CODE(aclrtStreamAbort(reinterpret_cast<aclrtStream>(0x99)), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("aclrtStreamStop: an idle stream stops at once; the default stream cannot be stopped") {
    Runtime rt;
    Stream stream;
    CHECK_ACL(aclrtStreamStop(stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL_CODE(aclrtStreamStop(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtStreamStop(reinterpret_cast<aclrtStream>(0x99)), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("aclrtDestroyStreamForce returns at once and the enqueued work still runs") {
    Runtime rt;
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 5; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE(gate.wait_entered());

    std::atomic<bool> returned{false};
    std::thread destroyer([&] {
        CHECK_ACL(aclrtDestroyStreamForce(stream.release()));
        returned = true;
    });
    CHECK(eventually([&] { return returned.load(); }));  // while the gate still holds the stream
    CHECK(counter == 0);
    gate.open();
    destroyer.join();
    CHECK_ACL(aclrtSynchronizeDevice());
    CHECK(counter == 5);
}

namespace {
struct InFlightUse {
    unsigned char* buffer;
    bool intact = false;
};
void write_and_read_back(void* argument) {
    auto* use = static_cast<InFlightUse*>(argument);
    std::memset(use->buffer, 0x5a, 4096);
    use->intact = std::all_of(use->buffer, use->buffer + 4096, [](unsigned char b) { return b == 0x5a; });
}
}  // namespace

TEST_CASE("memory freed while work that uses it is in flight stays valid for that work") {
    Runtime rt;
    Stream stream;
    Gate gate;
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    InFlightUse use{static_cast<unsigned char*>(device)};
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &write_and_read_back, &use));
    REQUIRE(gate.wait_entered());

    CHECK_ACL(aclrtFree(device));  // returns at once: no implicit synchronization
    CHECK_ACL_CODE(aclrtFree(device), ACL_ERROR_RT_MEMORY_FREE);  // the allocation has ended
    void* other = nullptr;
    REQUIRE_ACL(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    std::memset(other, 0, 4096);
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(use.intact);  // (under ASan, a write to returned bytes would also be reported)
    CHECK_ACL(aclrtFree(other));
}
