// Handles: destroyed, stale, foreign and garbage stream / event / context handles are
// ACL_ERROR_RT_INVALID_HANDLE (107017) for every call that takes one, and never crash. A NULL
// stream is the default stream wherever work is enqueued or synchronized; destroy and record calls
// reject NULL handles with ACL_ERROR_INVALID_PARAM.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
struct Handle {
    std::string what;
    void* value;
};

void* bits(std::uintptr_t value) { return reinterpret_cast<void*>(value); }

// Values that are not live handles of any kind, whatever the call.
std::vector<Handle> garbage(int* on_stack, void* on_heap) {
    return {
        {"0x1", bits(0x1)},
        {"0xdeadbeef", bits(0xdeadbeef)},
        {"all bits set", bits(UINTPTR_MAX)},
        {"a pointer to a stack int", on_stack},
        {"a pointer to heap memory", on_heap},
        {"a forged handle with the stream tag", bits((std::uintptr_t{2} << 60) | (std::uintptr_t{1} << 32) | 0xfffff)},
        {"a forged handle with the event tag and generation 0", bits((std::uintptr_t{3} << 60) | 1)},
    };
}

// Everything a test needs to call each API with one bad handle and otherwise valid arguments.
struct Scene {
    std::unique_ptr<Runtime> rt;  // none when the test has set a device itself
    Stream stream;
    Event event;
    void* device = nullptr;
    void* pinned = nullptr;
    std::atomic<int> counter{0};
    int on_stack = 0;
    std::unique_ptr<int> on_heap = std::make_unique<int>(0);

    explicit Scene(bool own_runtime = true) : rt(own_runtime ? std::make_unique<Runtime>() : nullptr) {
        REQUIRE_ACL(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMallocHost(&pinned, 64));
        REQUIRE_ACL(aclrtRecordEvent(event, stream));
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
    }
    ~Scene() {
        aclrtFree(device);
        aclrtFreeHost(pinned);
    }

    static aclrtContext context() {
        aclrtContext current = nullptr;
        CHECK_ACL(aclrtGetCurrentContext(&current));
        return current;
    }
};

void check_stream_calls(Scene& scene, aclrtStream bad) {
    aclrtStreamStatus status;
    uint32_t value = 0;
    CHECK_ACL_CODE(aclrtDestroyStream(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtDestroyStreamForce(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSynchronizeStream(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(bad, 10), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtStreamQuery(bad, &status), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtStreamGetPriority(bad, &value), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtStreamGetFlags(bad, &value), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSetStreamFailureMode(bad, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(launch_increment(bad, scene.counter), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtMemcpyAsync(scene.device, 64, scene.pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, bad),
                   ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtMemsetAsync(scene.device, 64, 0, 64, bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtMemcpy2dAsync(scene.device, 8, scene.pinned, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE, bad),
                   ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtRecordEvent(scene.event, bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtResetEvent(scene.event, bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtStreamWaitEvent(bad, scene.event), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSubscribeReport(this_thread_id(), bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtUnSubscribeReport(this_thread_id(), bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtLaunchCallback(&increment, &scene.counter, ACL_CALLBACK_NO_BLOCK, bad),
                   ACL_ERROR_RT_INVALID_HANDLE);
}

void check_event_calls(Scene& scene, aclrtEvent bad) {
    aclrtEventRecordedStatus recorded;
    aclrtEventWaitStatus waited;
    float ms = 0;
    uint64_t timestamp = 0;
    CHECK_ACL_CODE(aclrtDestroyEvent(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtRecordEvent(bad, scene.stream), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtResetEvent(bad, scene.stream), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtStreamWaitEvent(scene.stream, bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSynchronizeEvent(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSynchronizeEventWithTimeout(bad, 10), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtQueryEventStatus(bad, &recorded), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtQueryEventWaitStatus(bad, &waited), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, bad, scene.event), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, scene.event, bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtEventGetTimestamp(bad, &timestamp), ACL_ERROR_RT_INVALID_HANDLE);
}

void check_context_calls(aclrtContext bad) {
    aclrtContext before = nullptr, after = nullptr;
    CHECK_ACL(aclrtGetCurrentContext(&before));
    CHECK_ACL_CODE(aclrtDestroyContext(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtSetCurrentContext(bad), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL(aclrtGetCurrentContext(&after));
    CHECK(after == before);  // a failed switch leaves the current context alone
}

// The scene still works after all the bad calls.
void check_scene_intact(Scene& scene) {
    CHECK(scene.counter == 0);
    CHECK_ACL(launch_increment(scene.stream, scene.counter));
    CHECK_ACL(aclrtRecordEvent(scene.event, scene.stream));
    CHECK_ACL(aclrtSynchronizeStream(scene.stream));
    CHECK_ACL(aclrtSynchronizeEvent(scene.event));
    CHECK(scene.counter == 1);
}
}  // namespace

TEST_CASE("garbage stream handles are ACL_ERROR_RT_INVALID_HANDLE for every stream call") {
    Scene scene;
    std::vector<Handle> handles = garbage(&scene.on_stack, scene.on_heap.get());
    handles.push_back({"an event handle", static_cast<aclrtEvent>(scene.event)});
    handles.push_back({"a context handle", scene.context()});
    for (const Handle& handle : handles) {
        CAPTURE(handle.what);
        check_stream_calls(scene, handle.value);
    }
    check_scene_intact(scene);
}

TEST_CASE("garbage event handles are ACL_ERROR_RT_INVALID_HANDLE for every event call") {
    Scene scene;
    std::vector<Handle> handles = garbage(&scene.on_stack, scene.on_heap.get());
    handles.push_back({"a stream handle", static_cast<aclrtStream>(scene.stream)});
    handles.push_back({"a context handle", scene.context()});
    for (const Handle& handle : handles) {
        CAPTURE(handle.what);
        check_event_calls(scene, handle.value);
    }
    check_scene_intact(scene);
}

TEST_CASE("garbage context handles are ACL_ERROR_RT_INVALID_HANDLE for every context call") {
    Scene scene;
    std::vector<Handle> handles = garbage(&scene.on_stack, scene.on_heap.get());
    handles.push_back({"a stream handle", static_cast<aclrtStream>(scene.stream)});
    handles.push_back({"an event handle", static_cast<aclrtEvent>(scene.event)});
    for (const Handle& handle : handles) {
        CAPTURE(handle.what);
        check_context_calls(handle.value);
    }
    check_scene_intact(scene);
}

TEST_CASE("destroyed handles are ACL_ERROR_RT_INVALID_HANDLE") {
    Scene scene;
    aclrtStream stream = nullptr;
    aclrtEvent event = nullptr;
    aclrtContext context = nullptr;
    const aclrtContext primary = scene.context();
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtCreateEvent(&event));
    REQUIRE_ACL(aclrtCreateContext(&context, 0));
    REQUIRE_ACL(aclrtSetCurrentContext(primary));
    REQUIRE_ACL(aclrtDestroyStream(stream));
    REQUIRE_ACL(aclrtDestroyEvent(event));
    REQUIRE_ACL(aclrtDestroyContext(context));

    SUBCASE("stream") { check_stream_calls(scene, stream); }
    SUBCASE("event") { check_event_calls(scene, event); }
    SUBCASE("context") { check_context_calls(context); }
    check_scene_intact(scene);
}

TEST_CASE("a stale handle does not reach the object that reused its slot") {
    Scene scene;
    aclrtStream old_stream = nullptr, new_stream = nullptr;
    aclrtEvent old_event = nullptr, new_event = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&old_stream));
    REQUIRE_ACL(aclrtDestroyStream(old_stream));
    REQUIRE_ACL(aclrtCreateStream(&new_stream));
    REQUIRE_ACL(aclrtCreateEvent(&old_event));
    REQUIRE_ACL(aclrtDestroyEvent(old_event));
    REQUIRE_ACL(aclrtCreateEvent(&new_event));
    CHECK(old_stream != new_stream);
    CHECK(old_event != new_event);

    check_stream_calls(scene, old_stream);
    check_event_calls(scene, old_event);

    // The new objects were not touched by the calls on the stale handles.
    aclrtEventRecordedStatus status;
    CHECK_ACL(aclrtQueryEventStatus(new_event, &status));
    CHECK(status == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(new_stream, counter));
    CHECK_ACL(aclrtSynchronizeStream(new_stream));
    CHECK(counter == 1);
    CHECK_ACL(aclrtDestroyEvent(new_event));
    CHECK_ACL(aclrtDestroyStream(new_stream));
    check_scene_intact(scene);
}

TEST_CASE("handles of a device are invalid after its last reset") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr, default_stream = nullptr;
    aclrtEvent event = nullptr;
    aclrtContext primary = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    REQUIRE_ACL(aclrtCreateEvent(&event));
    REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&default_stream));
    REQUIRE_ACL(aclrtGetCurrentContext(&primary));
    REQUIRE_ACL(aclrtResetDevice(0));

    REQUIRE_ACL(aclrtSetDevice(0));  // a new device session
    {
        Scene scene(false);
        check_stream_calls(scene, stream);
        check_stream_calls(scene, default_stream);
        check_event_calls(scene, event);
        check_context_calls(primary);
        check_scene_intact(scene);
    }
    CHECK_ACL(aclrtResetDevice(0));
}

TEST_CASE("handles from before aclFinalize are invalid after the runtime is initialized again") {
    aclrtStream old_stream = nullptr;
    aclrtEvent old_event = nullptr;
    {
        Runtime rt;
        REQUIRE_ACL(aclrtCreateStream(&old_stream));
        REQUIRE_ACL(aclrtCreateEvent(&old_event));
    }
    Scene scene;
    // Create as many objects as the first session did, so that slots are reused.
    aclrtStream new_stream = nullptr;
    aclrtEvent new_event = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&new_stream));
    REQUIRE_ACL(aclrtCreateEvent(&new_event));
    CAPTURE(old_stream);
    CAPTURE(new_stream);
    check_stream_calls(scene, old_stream);
    check_event_calls(scene, old_event);
    CHECK_ACL(aclrtDestroyStream(new_stream));
    CHECK_ACL(aclrtDestroyEvent(new_event));
}

TEST_CASE("NULL is the default stream for the calls that enqueue or synchronize") {
    Scene scene;
    aclrtStreamStatus status;
    uint32_t value = 0;
    CHECK_ACL(launch_increment(nullptr, scene.counter));
    CHECK_ACL(aclrtMemcpyAsync(scene.device, 64, scene.pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
    CHECK_ACL(aclrtMemsetAsync(scene.device, 64, 0, 64, nullptr));
    CHECK_ACL(aclrtMemcpy2dAsync(scene.device, 8, scene.pinned, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
    CHECK_ACL(aclrtStreamWaitEvent(nullptr, scene.event));
    CHECK_ACL(aclrtRecordEvent(scene.event, nullptr));
    CHECK_ACL(aclrtResetEvent(scene.event, nullptr));
    CHECK_ACL(aclrtSetStreamFailureMode(nullptr, ACL_CONTINUE_ON_FAILURE));
    CHECK_ACL(aclrtStreamGetPriority(nullptr, &value));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundMs));
    CHECK_ACL(aclrtStreamQuery(nullptr, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);
    CHECK(scene.counter == 1);
    CHECK_ACL(aclrtSubscribeReport(this_thread_id(), nullptr));
    CHECK_ACL(aclrtLaunchCallback(&increment, &scene.counter, ACL_CALLBACK_NO_BLOCK, nullptr));
    CHECK_ACL(aclrtProcessReport(kBoundMs));
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), nullptr));
    CHECK(scene.counter == 2);
}

TEST_CASE("destroy and record calls reject NULL handles with ACL_ERROR_INVALID_PARAM") {
    Scene scene;
    CHECK_ACL_CODE(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDestroyStreamForce(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRecordEvent(nullptr, scene.stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    check_scene_intact(scene);
}
