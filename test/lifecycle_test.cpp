// Destroying and resetting with work still pending: the work runs to completion, waiters are
// released, and nothing crashes. Each test opens its gate from another thread as soon as the gate
// is reached, so the destroy or reset call finds the work pending (or, at worst, just finished);
// either way it must not return before the work has run.
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
// Opens the gate from another thread once it has been reached.
class Opener {
public:
    explicit Opener(Gate& gate) : thread_([&gate] {
        gate.wait_entered();
        gate.open();
    }) {}
    ~Opener() { thread_.join(); }

private:
    std::thread thread_;
};

constexpr int kWork = 1000;
}  // namespace

TEST_CASE("aclrtDestroyStream of a stream that another stream waits on lets the waiter finish") {
    ConfiguredRuntime rt(2);
    Stream producer, consumer;
    Event event;
    Gate gate;
    std::atomic<int> produced{0}, consumed{0};
    REQUIRE_ACL(gate.hold(producer));
    for (int i = 0; i < kWork; ++i) REQUIRE_ACL(launch_increment(producer, produced));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));
    REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
    REQUIRE_ACL(launch_increment(consumer, consumed));
    {
        Opener opener(gate);
        CHECK_ACL(aclrtDestroyStream(producer.release()));
        CHECK(produced == kWork);
    }
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    CHECK(consumed == 1);
}

TEST_CASE("aclrtDestroyEvent while a stream still waits on it lets the waiter finish") {
    ConfiguredRuntime rt(2);
    Stream producer, consumer;
    Gate gate;
    aclrtEvent event = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&event));
    std::atomic<int> produced{0}, consumed{0};
    REQUIRE_ACL(gate.hold(producer));
    REQUIRE_ACL(launch_increment(producer, produced));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));
    REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
    REQUIRE_ACL(launch_increment(consumer, consumed));
    CHECK_ACL(aclrtDestroyEvent(event));
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);  // still waits
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    CHECK(produced == 1);
    CHECK(consumed == 1);
}

TEST_CASE("aclrtDestroyStream with a BLOCK callback nobody processed runs it instead of hanging") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    std::atomic<int> callback{0}, after{0};
    REQUIRE_ACL(aclrtLaunchCallback(&increment, &callback, ACL_CALLBACK_BLOCK, stream));
    REQUIRE_ACL(launch_increment(stream, after));
    CHECK_ACL(aclrtDestroyStream(stream.release()));
    CHECK(callback == 1);
    CHECK(after == 1);
    // The destroyed stream no longer counts as a subscription of this thread.
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
}

TEST_CASE("aclrtResetDevice with pending work on several streams runs it all first") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream first = nullptr, second = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&first));
    REQUIRE_ACL(aclrtCreateStream(&second));
    Gate gate;
    std::atomic<int> a{0}, b{0}, c{0};
    REQUIRE_ACL(gate.hold(first));
    for (int i = 0; i < kWork; ++i) {
        REQUIRE_ACL(launch_increment(first, a));
        REQUIRE_ACL(launch_increment(second, b));
        REQUIRE_ACL(launch_increment(nullptr, c));
    }
    {
        Opener opener(gate);
        CHECK_ACL(aclrtResetDevice(0));
    }
    CHECK(a == kWork);
    CHECK(b == kWork);
    CHECK(c == kWork);
}

TEST_CASE("aclrtResetDevice with a BLOCK callback nobody processed does not hang") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    std::atomic<int> callback{0};
    REQUIRE_ACL(aclrtLaunchCallback(&increment, &callback, ACL_CALLBACK_BLOCK, stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK(callback == 1);
}

TEST_CASE("aclrtDestroyContext with pending work runs it first") {
    Runtime rt;
    const aclrtContext primary = rt.context();
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&context, 0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    Gate gate;
    std::atomic<int> on_stream{0}, on_default{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < kWork; ++i) {
        REQUIRE_ACL(launch_increment(stream, on_stream));
        REQUIRE_ACL(launch_increment(nullptr, on_default));  // the context's own default stream
    }
    {
        Opener opener(gate);
        CHECK_ACL(aclrtDestroyContext(context));
    }
    CHECK(on_stream == kWork);
    CHECK(on_default == kWork);
    CHECK_ACL(aclrtSetCurrentContext(primary));
}

TEST_CASE("aclFinalize with pending work and live objects runs the work and releases everything") {
    REQUIRE_ACL(aclInit(nullptr));
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtContext extra = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&extra, 0));
    REQUIRE_ACL(aclrtSetDevice(0));  // back on the default context
    aclrtStream stream = nullptr;
    aclrtEvent event = nullptr;
    void *device = nullptr, *host = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtCreateEvent(&event));
    REQUIRE_ACL(aclrtMalloc(&device, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMallocHost(&host, 1 << 20));
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < kWork; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    {
        Opener opener(gate);
        CHECK_ACL(aclFinalize());
    }
    CHECK(counter == kWork);
    // The runtime comes back clean.
    REQUIRE_ACL(aclInit(nullptr));
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == kWork + 1);
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
}

TEST_CASE("streams and events can be destroyed in any order relative to their work") {
    ConfiguredRuntime rt(2);
    constexpr int kStreams = 16;
    std::atomic<int> counter{0};
    std::vector<aclrtStream> streams(kStreams);
    std::vector<aclrtEvent> events(kStreams);
    for (int i = 0; i < kStreams; ++i) {
        REQUIRE_ACL(aclrtCreateStream(&streams[i]));
        REQUIRE_ACL(aclrtCreateEvent(&events[i]));
    }
    // A ring: each stream waits on its predecessor's event, then records its own.
    for (int i = 0; i < kStreams; ++i) {
        REQUIRE_ACL(launch_increment(streams[i], counter));
        REQUIRE_ACL(aclrtRecordEvent(events[i], streams[i]));
        REQUIRE_ACL(aclrtStreamWaitEvent(streams[(i + 1) % kStreams], events[i]));
        REQUIRE_ACL(launch_increment(streams[(i + 1) % kStreams], counter));
    }
    // Events first, then streams in reverse order, without any synchronize.
    for (auto event : events) CHECK_ACL(aclrtDestroyEvent(event));
    for (int i = kStreams - 1; i >= 0; --i) CHECK_ACL(aclrtDestroyStream(streams[i]));
    CHECK(counter == 2 * kStreams);
}
