// Contexts: creation and destruction, the thread-local current context, default streams, and the
// calls that need a current context.
#include <thread>

#include "support.h"

using namespace canopy_test;

TEST_CASE("aclrtCreateContext binds the new context to the caller; aclrtDestroyContext releases it") {
    Initialized init;
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&context, 0));
    REQUIRE(context != nullptr);

    aclrtContext current = nullptr;
    CHECK_ACL(aclrtGetCurrentContext(&current));
    CHECK(current == context);
    int32_t device = -1;
    CHECK_ACL(aclrtGetDevice(&device));
    CHECK(device == 0);

    CHECK_ACL(aclrtDestroyContext(context));
    // It was current: the thread has none now, and the handle is dead.
    CHECK_ACL_CODE(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtSetCurrentContext(context), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtDestroyContext(context), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("calls that need a current context return ACL_ERROR_RT_CONTEXT_NULL without one") {
    Initialized init;
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    aclrtEvent event = nullptr;
    void* memory = nullptr;
    int32_t device = 0;
    aclrtStreamStatus status;
    char host[16] = {};
    std::atomic<int> counter{0};
    CHECK_ACL_CODE(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtCtxGetCurrentDefaultStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtCreateStreamWithConfig(&stream, 0, 0), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtCreateEvent(&event), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtMemcpy(host, sizeof host, host + 8, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(launch_increment(nullptr, counter), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtStreamQuery(nullptr, &status), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_ACL_CODE(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    CHECK(counter == 0);
}

TEST_CASE("the current context is thread-local") {
    Runtime rt;
    const aclrtContext main_context = rt.context();

    aclError before = -1, created = -1, after_create = -1, switched = -1;
    aclrtContext thread_context = nullptr, seen_after_create = nullptr, seen_after_switch = nullptr;
    std::thread([&] {
        aclrtContext current = nullptr;
        before = aclrtGetCurrentContext(&current);  // a new thread starts without a context
        created = aclrtCreateContext(&thread_context, 0);
        after_create = aclrtGetCurrentContext(&seen_after_create);
        switched = aclrtSetCurrentContext(main_context);
        aclrtGetCurrentContext(&seen_after_switch);
    }).join();

    CHECK(before == ACL_ERROR_RT_CONTEXT_NULL);
    CHECK(created == ACL_SUCCESS);
    CHECK(after_create == ACL_SUCCESS);
    CHECK(seen_after_create == thread_context);
    CHECK(switched == ACL_SUCCESS);
    CHECK(seen_after_switch == main_context);

    // Neither the creation nor the switch on the other thread changed this thread's context.
    CHECK(rt.context() == main_context);
    CHECK_ACL(aclrtDestroyContext(thread_context));
    CHECK(rt.context() == main_context);
}

TEST_CASE("each context has its own default stream, used for a NULL stream") {
    Runtime rt;
    const aclrtContext first = rt.context();
    aclrtStream first_default = nullptr;
    REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&first_default));
    REQUIRE(first_default != nullptr);

    aclrtContext second = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&second, 0));
    aclrtStream second_default = nullptr;
    REQUIRE_ACL(aclrtCtxGetCurrentDefaultStream(&second_default));
    CHECK(second_default != first_default);

    // Hold the first context's default stream through a NULL stream.
    REQUIRE_ACL(aclrtSetCurrentContext(first));
    Gate gate;
    REQUIRE_ACL(gate.hold(nullptr));
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    CHECK_ACL(aclrtStreamQuery(first_default, &status));
    CHECK(status == ACL_STREAM_STATUS_NOT_READY);

    // In the second context, NULL is the second default stream, which is idle.
    REQUIRE_ACL(aclrtSetCurrentContext(second));
    CHECK_ACL(aclrtStreamQuery(nullptr, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(nullptr, 0));

    REQUIRE_ACL(aclrtSetCurrentContext(first));
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK_ACL(aclrtStreamQuery(first_default, &status));
    CHECK(status == ACL_STREAM_STATUS_COMPLETE);
    CHECK_ACL(aclrtDestroyContext(second));
}

TEST_CASE("using a stream of another context is ACL_ERROR_RT_STREAM_CONTEXT") {
    Runtime rt;
    const aclrtContext first = rt.context();
    aclrtContext second = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&second, 0));
    aclrtStream stream_of_second = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream_of_second));

    REQUIRE_ACL(aclrtSetCurrentContext(first));
    std::atomic<int> counter{0};
    CHECK_ACL_CODE(launch_increment(stream_of_second, counter), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream_of_second), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK(counter == 0);

    REQUIRE_ACL(aclrtSetCurrentContext(second));
    CHECK_ACL(launch_increment(stream_of_second, counter));
    CHECK_ACL(aclrtSynchronizeStream(stream_of_second));
    CHECK(counter == 1);
    CHECK_ACL(aclrtDestroyContext(second));  // destroys the stream with it
}

TEST_CASE("aclrtDestroyContext finishes and destroys the context's streams") {
    Runtime rt;
    const aclrtContext first = rt.context();
    aclrtContext second = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&second, 0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    std::atomic<int> counter{0};
    for (int i = 0; i < 1000; ++i) REQUIRE_ACL(launch_increment(stream, counter));

    CHECK_ACL(aclrtDestroyContext(second));
    CHECK(counter == 1000);
    REQUIRE_ACL(aclrtSetCurrentContext(first));
    aclrtStreamStatus status;
    CHECK_ACL_CODE(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("a created context keeps its device alive after aclrtResetDevice") {
    Initialized init;
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtCreateContext(&context, 0));
    CHECK_ACL(aclrtResetDevice(0));

    // The created context still works.
    REQUIRE_ACL(aclrtSetCurrentContext(context));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 1);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtDestroyContext(context));
}

TEST_CASE("the default context of a device cannot be destroyed with aclrtDestroyContext") {
    Runtime rt;
    const aclrtContext primary = rt.context();
    CHECK(aclrtDestroyContext(primary) != ACL_SUCCESS);
    // It still works.
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == 1);
}

TEST_CASE("context calls reject NULL arguments with ACL_ERROR_INVALID_PARAM") {
    Runtime rt;
    CHECK_ACL_CODE(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM);
}
