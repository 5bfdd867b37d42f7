// Host functions and callbacks that call back into the runtime: waiting for their own stream or
// device is refused with ACL_ERROR_RT_NO_PERMISSION instead of hanging, and a device synchronize
// survives host functions that destroy streams (issue 12).
#include <atomic>

#include "support.h"

using namespace canopy_test;

namespace {
struct Call {
    aclrtContext context;
    aclrtStream stream;
    aclError (*action)(Call&);
    aclError result = -1;
};
void run_call(void* argument) {
    auto* call = static_cast<Call*>(argument);
    aclrtSetCurrentContext(call->context);
    call->result = call->action(*call);
}

aclError launch_and_wait(Call& call) {
    if (aclError rc = aclrtLaunchHostFunc(call.stream, run_call, &call)) return rc;
    return aclrtSynchronizeStream(call.stream);
}
}  // namespace

TEST_CASE("a host function cannot wait for its own stream, its device or the runtime's end") {
    Runtime runtime;
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    aclError (*actions[])(Call&) = {
        [](Call& c) { return aclrtSynchronizeStream(c.stream); },
        [](Call& c) { return aclrtSynchronizeStreamWithTimeout(c.stream, 1000); },
        [](Call&) { return aclrtSynchronizeDevice(); },
        [](Call&) { return aclrtSynchronizeDeviceWithTimeout(1000); },
        [](Call& c) { return aclrtDestroyStream(c.stream); },
        [](Call&) { return aclrtResetDevice(0); },
        [](Call&) { return aclFinalize(); },
    };
    for (int round = 0; round < 200; ++round) {
        for (auto action : actions) {
            Call call{runtime.context(), stream, action};
            REQUIRE_ACL(launch_and_wait(call));
            REQUIRE(call.result == ACL_ERROR_RT_NO_PERMISSION);
        }
    }
    // The stream, the device and the runtime are intact.
    Call last{runtime.context(), stream, [](Call&) { return ACL_SUCCESS; }};
    CHECK_ACL(launch_and_wait(last));
    CHECK(last.result == ACL_SUCCESS);
    CHECK_ACL(aclrtDestroyStream(stream));
}

TEST_CASE("a host function cannot synchronize an event recorded after it on its stream, nor destroy its context") {
    Runtime runtime;
    const aclrtContext primary = runtime.context();
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&context, 0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    aclrtEvent event = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&event));
    struct Target {
        aclrtContext context;
        aclrtEvent event;
        aclError synchronized = -1;
        aclError destroyed = -1;
    } target{context, event};
    const aclrtHostFunc body = [](void* argument) {
        auto* t = static_cast<Target*>(argument);
        aclrtSetCurrentContext(t->context);
        t->synchronized = aclrtSynchronizeEvent(t->event);
        t->destroyed = aclrtDestroyContext(t->context);
    };
    for (int round = 0; round < 200; ++round) {
        Gate gate;  // the record is enqueued before the host function runs
        REQUIRE_ACL(gate.hold(stream));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, body, &target));
        REQUIRE_ACL(aclrtRecordEvent(event, stream));
        gate.open();
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        REQUIRE(target.synchronized == ACL_ERROR_RT_NO_PERMISSION);
        REQUIRE(target.destroyed == ACL_ERROR_RT_NO_PERMISSION);
    }
    // From another stream's host function the same calls wait and succeed.
    aclrtStream other = nullptr;
    REQUIRE_ACL(aclrtSetCurrentContext(context));
    REQUIRE_ACL(aclrtCreateStream(&other));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE_ACL(aclrtLaunchHostFunc(other, [](void* argument) {
        auto* t = static_cast<Target*>(argument);
        t->synchronized = aclrtSynchronizeEvent(t->event);
    }, &target));
    REQUIRE_ACL(aclrtSynchronizeStream(other));
    CHECK(target.synchronized == ACL_SUCCESS);
    CHECK_ACL(aclrtDestroyEvent(event));
    CHECK_ACL(aclrtDestroyContext(context));
    CHECK_ACL(aclrtSetCurrentContext(primary));
}

TEST_CASE("a host function may synchronize another stream") {
    Runtime runtime;
    aclrtStream stream = nullptr, other = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtCreateStream(&other));
    Call call{runtime.context(), other, [](Call& c) { return aclrtSynchronizeStream(c.stream); }};
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, run_call, &call));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(call.result == ACL_SUCCESS);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtDestroyStream(other));
}

TEST_CASE("synchronizing the device while a host function destroys another stream completes") {
    Runtime runtime;
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    for (int round = 0; round < 300; ++round) {
        aclrtStream doomed = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&doomed));
        Call call{runtime.context(), doomed, [](Call& c) { return aclrtDestroyStream(c.stream); }};
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, run_call, &call));
        REQUIRE_ACL(aclrtSynchronizeDevice());
        REQUIRE(call.result == ACL_SUCCESS);
    }
    CHECK_ACL(aclrtDestroyStream(stream));
}

namespace {
void count(void* counter) { ++*static_cast<std::atomic<int>*>(counter); }
}  // namespace

TEST_CASE("resetting the device and aclFinalize end a blocking callback that no thread processes") {
    for (bool finalize : {false, true}) {
        CAPTURE(finalize);
        REQUIRE_ACL(aclInit(nullptr));
        REQUIRE_ACL(aclrtSetDevice(0));
        aclrtStream stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&stream));
        REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
        std::atomic<int> calls{0};
        REQUIRE_ACL(aclrtLaunchCallback(count, &calls, ACL_CALLBACK_BLOCK, stream));
        REQUIRE_ACL(aclrtLaunchCallback(count, &calls, ACL_CALLBACK_NO_BLOCK, stream));
        if (!finalize) CHECK_ACL(aclrtResetDevice(0));
        CHECK_ACL(aclFinalize());
        // Enqueued work is not lost: the callbacks ran on the thread that ended the runtime.
        CHECK(calls == 2);
    }
}
