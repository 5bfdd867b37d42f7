// Objects destroyed while other threads' calls are using them (issue 12): the calls return a code
// or complete, nothing is touched after it is freed (the sanitizer runs check that), and work that
// was enqueued successfully runs before the destroy returns.
#include <atomic>
#include <thread>

#include "support.h"

using namespace canopy_test;

namespace {
constexpr int kRounds = 1000;

struct Race {
    aclError code = ACL_SUCCESS;  // the other thread's first failing call
    int launched = 0;             // its launches that succeeded
    int ran_when_destroyed = 0;   // host functions run when `destroy` returned
};

// Another thread launches host functions on `stream` and synchronizes it until a call fails, while
// this one calls `destroy` once the first launch has succeeded.
template <class Destroy>
Race launch_while(aclrtContext context, aclrtStream stream, Destroy destroy) {
    std::atomic<int> ran{0};
    std::atomic<bool> started{false};
    Race race;
    std::thread user([&] {
        aclrtSetCurrentContext(context);
        while ((race.code = launch_increment(stream, ran)) == ACL_SUCCESS) {
            ++race.launched;
            started.store(true);
            if ((race.code = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) break;
        }
    });
    while (!started.load()) std::this_thread::yield();
    CHECK_ACL(destroy());
    // Everything the other thread enqueued before the handle went has run by now.
    race.ran_when_destroyed = ran.load();
    user.join();
    return race;
}
}  // namespace

TEST_CASE("a stream destroyed while another thread launches on it and synchronizes it") {
    Runtime runtime;
    const aclrtContext context = runtime.context();
    for (int round = 0; round < kRounds; ++round) {
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        const Race race = launch_while(context, stream, [&] { return aclrtDestroyStream(stream); });
        REQUIRE(race.code == ACL_ERROR_RT_INVALID_HANDLE);
        REQUIRE(race.ran_when_destroyed == race.launched);
    }
}

TEST_CASE("an event destroyed while another thread records it, waits for it and synchronizes it") {
    Runtime runtime;
    const aclrtContext context = runtime.context();
    Stream recording, waiting;
    for (int round = 0; round < kRounds; ++round) {
        aclrtEvent event = nullptr;
        REQUIRE_ACL(aclrtCreateEvent(&event));
        std::atomic<bool> started{false};
        aclError code = ACL_SUCCESS;
        std::thread user([&] {
            aclrtSetCurrentContext(context);
            while ((code = aclrtRecordEvent(event, recording)) == ACL_SUCCESS &&
                   (code = aclrtStreamWaitEvent(waiting, event)) == ACL_SUCCESS &&
                   (code = aclrtSynchronizeEvent(event)) == ACL_SUCCESS) {
                started.store(true);
            }
        });
        while (!started.load()) std::this_thread::yield();
        CHECK_ACL(aclrtDestroyEvent(event));
        user.join();
        REQUIRE(code == ACL_ERROR_RT_INVALID_HANDLE);
    }
    CHECK_ACL(aclrtSynchronizeStream(waiting));
}

TEST_CASE("a thread synchronizing an event that another thread destroys returns when the record completes") {
    Runtime runtime;
    const aclrtContext context = runtime.context();
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    aclrtEvent event = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&event));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    Flag entering;
    aclError code = -1;
    std::thread user([&] {
        aclrtSetCurrentContext(context);
        entering.set();
        code = aclrtSynchronizeEvent(event);
    });
    REQUIRE(entering.wait());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // most likely inside the synchronize by now
    // As CANN documents, destroying an event that has not completed does not wait for it.
    CHECK_ACL(aclrtDestroyEvent(event));
    CHECK(gate.left() == 0);
    gate.open();
    user.join();
    // Inside the synchronize, the event outlived its handle until the record completed; a thread
    // that came too late found the handle gone.
    CHECK((code == ACL_SUCCESS || code == ACL_ERROR_RT_INVALID_HANDLE));
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("a context destroyed while another thread launches on its stream") {
    Runtime runtime;
    for (int round = 0; round < kRounds / 4; ++round) {
        aclrtContext context = nullptr;
        REQUIRE_ACL(aclrtCreateContext(&context, 0));
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        const Race race = launch_while(context, stream, [&] { return aclrtDestroyContext(context); });
        // The stream's handle goes first, or the thread's current context with it.
        REQUIRE((race.code == ACL_ERROR_RT_INVALID_HANDLE || race.code == ACL_ERROR_RT_CONTEXT_NULL));
        REQUIRE(race.ran_when_destroyed == race.launched);
    }
}

TEST_CASE("two threads destroying the same stream: one succeeds, the other is told the handle is gone") {
    Runtime runtime;
    const aclrtContext context = runtime.context();
    for (int round = 0; round < kRounds; ++round) {
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, [](void*) {}, nullptr));
        aclError codes[2] = {-1, -1};
        std::thread other([&] {
            aclrtSetCurrentContext(context);
            codes[1] = aclrtDestroyStream(stream);
        });
        codes[0] = aclrtDestroyStream(stream);
        other.join();
        const int succeeded = (codes[0] == ACL_SUCCESS) + (codes[1] == ACL_SUCCESS);
        REQUIRE(succeeded == 1);
        REQUIRE((codes[0] == ACL_ERROR_RT_INVALID_HANDLE || codes[1] == ACL_ERROR_RT_INVALID_HANDLE));
    }
}

TEST_CASE("a device reset while another thread launches on one of its streams") {
    Runtime runtime;
    for (int round = 0; round < kRounds / 4; ++round) {
        REQUIRE_ACL(aclrtSetDevice(0));
        aclrtContext context = nullptr;
        REQUIRE_ACL(aclrtGetCurrentContext(&context));
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        // The reset waits for the other thread's calls on the device's stream, then for its work.
        const Race race = launch_while(context, stream, [] { return aclrtResetDeviceForce(0); });
        REQUIRE((race.code == ACL_ERROR_RT_INVALID_HANDLE || race.code == ACL_ERROR_RT_CONTEXT_NULL));
        REQUIRE(race.ran_when_destroyed == race.launched);
    }
    REQUIRE_ACL(aclrtSetDevice(0));  // the device the fixture resets
}

TEST_CASE("calls naming a device by its id while another thread sets and resets it") {
    ConfigFile config(R"({"canopy": {"device_count": 2, "workers_per_device": 1}})");
    Initialized init(config.path());
    std::atomic<bool> done{false};
    std::atomic<int> unexpected{0};
    std::thread querier([&] {
        while (!done.load()) {
            aclrtUtilizationInfo utilization{};
            uint32_t limit = 0;
            aclrtErrorInfo error{};
            const aclError codes[] = {aclrtGetDeviceUtilizationRate(1, &utilization),
                                      aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, &limit),
                                      aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_VECTOR_CORE, 8),
                                      aclrtGetErrorVerbose(1, &error)};
            // Set or not: success, or the device is not set.
            for (const aclError code : codes)
                if (code != ACL_SUCCESS && code != ACL_ERROR_RT_INVALID_DEVICEID) ++unexpected;
        }
    });
    for (int round = 0; round < kRounds; ++round) {
        REQUIRE_ACL(aclrtSetDevice(1));
        REQUIRE_ACL(aclrtResetDevice(1));
    }
    done = true;
    querier.join();
    CHECK(unexpected == 0);
}

TEST_CASE("calls of other threads while aclFinalize runs") {
    constexpr int kFinalizeRounds = CANOPY_TEST_SANITIZED ? 100 : 300;
    for (int round = 0; round < kFinalizeRounds; ++round) {
        REQUIRE_ACL(aclInit(nullptr));
        REQUIRE_ACL(aclrtSetDevice(0));
        aclrtContext context = nullptr;
        REQUIRE_ACL(aclrtGetCurrentContext(&context));
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        std::atomic<int> ran{0};
        std::atomic<bool> started{false};
        aclError last = ACL_SUCCESS;
        int launched = 0;
        std::thread user([&] {
            aclrtSetCurrentContext(context);
            aclrtUtilizationInfo utilization{};
            while ((last = launch_increment(stream, ran)) == ACL_SUCCESS) {
                ++launched;
                started = true;
                if ((last = aclrtGetDeviceUtilizationRate(0, &utilization)) != ACL_SUCCESS) break;
                if ((last = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) break;
            }
        });
        while (!started.load()) std::this_thread::yield();
        REQUIRE_ACL(aclFinalize());
        const int ran_when_finalized = ran.load();
        user.join();
        // The runtime is gone (the next aclInit starts a new one, where the stream is not).
        REQUIRE((last == ACL_ERROR_UNINITIALIZE || last == ACL_ERROR_RT_INVALID_HANDLE || last == ACL_ERROR_RT_CONTEXT_NULL));
        REQUIRE(ran_when_finalized == launched);
    }
}
