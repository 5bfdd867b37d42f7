// Error reporting: aclGetRecentErrMsg names the failing call and argument; aclrtGetLastError returns
// and clears the thread's last error, aclrtPeekAtLastError only returns it. All per thread.
#include <string>
#include <thread>

#include "support.h"

using namespace canopy_test;

namespace {
bool mentions(const std::string& text) { return recent_error().find(text) != std::string::npos; }
}  // namespace

TEST_CASE("aclGetRecentErrMsg names the failing call and the offending argument") {
    Runtime rt;
    Stream stream;
    void* memory = nullptr;
    char host[64] = {};

    CHECK_ACL_CODE(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK(mentions("aclrtMalloc"));
    CHECK(mentions("devPtr"));

    CHECK_ACL_CODE(aclrtMalloc(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK(mentions("aclrtMalloc"));
    CHECK(mentions("size"));

    CHECK_ACL_CODE(aclrtMemcpy(host, 8, host + 32, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(mentions("aclrtMemcpy"));
    CHECK(mentions("destMax"));

    CHECK_ACL_CODE(aclrtSetDevice(9), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(mentions("aclrtSetDevice"));
    CHECK(mentions("deviceId"));

    CHECK_ACL_CODE(aclrtRecordEvent(reinterpret_cast<aclrtEvent>(0xdeadbeef), stream), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(mentions("aclrtRecordEvent"));
    CHECK(mentions("event"));

    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, -5), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(mentions("aclrtSynchronizeStreamWithTimeout"));
    CHECK(mentions("timeout"));

    CHECK_ACL_CODE(aclrtLaunchCallback(&increment, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK(mentions("aclrtLaunchCallback"));
    CHECK(mentions("aclrtSubscribeReport"));  // tells what is missing
}

TEST_CASE("aclGetRecentErrMsg consumes the message: a second call returns NULL until the next error") {
    Runtime rt;
    CHECK_ACL_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    const char* first = aclGetRecentErrMsg();
    REQUIRE(first != nullptr);
    CHECK(std::string(first).find("aclrtSetDevice") != std::string::npos);
    CHECK(aclGetRecentErrMsg() == nullptr);
    CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID);  // the code stays
    CHECK_ACL_CODE(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
    const char* second = aclGetRecentErrMsg();
    REQUIRE(second != nullptr);
    CHECK(std::string(second).find("99") != std::string::npos);
}

TEST_CASE("aclGetRecentErrMsg is per thread and NULL on a thread that has had no error") {
    Runtime rt;
    CHECK_ACL_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    const std::string main_message = recent_error();

    const char* fresh_thread_message = reinterpret_cast<const char*>(1);
    std::string other_thread_message;
    std::thread([&] {
        fresh_thread_message = aclGetRecentErrMsg();
        uint32_t* null_count = nullptr;
        aclrtGetDeviceCount(null_count);
        other_thread_message = recent_error();
    }).join();

    CHECK(fresh_thread_message == nullptr);
    CHECK(other_thread_message.find("aclrtGetDeviceCount") != std::string::npos);
    CHECK(recent_error() == main_message);  // untouched by the other thread's error
}

TEST_CASE("aclrtGetLastError returns and clears the last error; aclrtPeekAtLastError does not clear it") {
    Runtime rt;
    // Start from a clean slate.
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS);

    CHECK_ACL_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS);
    CHECK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS);

    // The most recent error wins.
    CHECK_ACL_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("the last error is per thread") {
    Runtime rt;
    aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    CHECK_ACL_CODE(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
    aclError other_before = -1, other_after = -1;
    std::thread([&] {
        other_before = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        aclrtSetDevice(-1);
        other_after = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    }).join();
    CHECK(other_before == ACL_SUCCESS);
    CHECK(other_after == ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("an unknown error level is ACL_ERROR_INVALID_PARAM") {
    Runtime rt;
    CHECK(aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("errors before aclInit are recorded too") {
    aclrtStream stream = nullptr;
    CHECK_ACL_CODE(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
    CHECK(mentions("aclrtCreateStream"));
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_UNINITIALIZE);
}
