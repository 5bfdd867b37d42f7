// Exception callbacks and error detail: aclrtSetExceptionInfoCallback /
// aclrtExceptionInfoCallbackRegister receive the failing task's details, and aclrtGetErrorVerbose
// describes the device's most recent fault.
#include <mutex>

#include "runtime_kernels.h"
#include "support.h"

using namespace canopy_test;

namespace {
struct Seen {
    std::mutex mutex;
    int calls = 0;
    uint32_t task = 0, stream = 0, device = 0, code = 0, thread = 0;
    aclError func_rc = -1, args_rc = -1;
    aclrtFuncHandle func = nullptr;
};
Seen seen;

void record_exception(aclrtExceptionInfo* info) {
    std::lock_guard lock(seen.mutex);
    ++seen.calls;
    seen.task = aclrtGetTaskIdFromExceptionInfo(info);
    seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
    seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
    seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
    seen.thread = aclrtGetThreadIdFromExceptionInfo(info);
    seen.func_rc = aclrtGetFuncHandleFromExceptionInfo(info, &seen.func);
    void* args = nullptr;
    uint32_t length = 0;
    seen.args_rc = aclrtGetArgsFromExceptionInfo(info, &args, &length);
}
}  // namespace

TEST_CASE("the exception callback gets the failing task's stream, task, device, code and kernel") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtExceptionInfoCallbackRegister(&record_exception));
    CHECK_ACL_CODE(aclrtExceptionInfoCallbackRegister(&record_exception), ACL_ERROR_INVALID_PARAM);

    aclrtErrorInfo before{};
    CHECK_ACL(aclrtGetErrorVerbose(0, &before));
    CHECK(before.errorType == ACL_RT_NO_ERROR);

    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(launch_always_faulting(2, stream));
    uint32_t task = 0;
    REQUIRE_ACL(aclrtGetThreadLastTaskId(&task));
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);

    int32_t stream_id = -1;
    REQUIRE_ACL(aclrtStreamGetId(stream, &stream_id));
    aclrtFuncHandle expected_func = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&always_faulting), &expected_func));
    {
        std::lock_guard lock(seen.mutex);
        CHECK(seen.calls == 1);
        CHECK(seen.task == task);
        CHECK(seen.stream == static_cast<uint32_t>(stream_id));
        CHECK(seen.device == 0);
        CHECK(seen.code == static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
        CHECK(seen.thread != 0);
        CHECK(seen.func_rc == ACL_SUCCESS);
        CHECK(seen.func == expected_func);
        CHECK(seen.args_rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }

    aclrtErrorInfo after{};
    CHECK_ACL(aclrtGetErrorVerbose(0, &after));
    CHECK(after.errorType == ACL_RT_ERROR_AICORE);
    CHECK(after.hasDetail == 1);
    CHECK(after.detail.aicoreErrType == ACL_RT_AICORE_ERROR_SW);
    CHECK(after.tryRepair == 0);

    // Unregistered: a later fault calls nobody.
    REQUIRE_ACL(aclrtExceptionInfoCallbackUnregister(&record_exception));
    REQUIRE_ACL(launch_always_faulting(1, stream));
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    std::lock_guard lock(seen.mutex);
    CHECK(seen.calls == 1);
}

TEST_CASE("exception info and error detail: the error table") {
    Runtime rt;
    CHECK(aclrtGetTaskIdFromExceptionInfo(nullptr) == UINT32_MAX);
    CHECK(aclrtGetErrorCodeFromExceptionInfo(nullptr) == UINT32_MAX);
    aclrtFuncHandle func = nullptr;
    CHECK_ACL_CODE(aclrtGetFuncHandleFromExceptionInfo(nullptr, &func), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtExceptionInfoCallbackRegister(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtExceptionInfoCallbackUnregister(&record_exception), ACL_ERROR_INVALID_PARAM);
    aclrtErrorInfo info{};
    CHECK_ACL_CODE(aclrtGetErrorVerbose(0, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetErrorVerbose(2, &info), ACL_ERROR_RT_INVALID_DEVICEID);
}
