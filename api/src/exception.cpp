// Task exceptions: the callbacks a program registers receive the failing task's details
// (aclrtExceptionInfo), and aclrtGetErrorVerbose describes a device's most recent fault. A failed
// operation reaches them from the engine's fault handler, on the thread that ran the operation,
// once the failure is recorded on its stream (so the next synchronize returns it as well).
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "api.h"

// The struct behind CANN's opaque aclrtExceptionInfo.
struct rtExceptionInfo {
    uint32_t taskId;
    uint32_t streamId;
    uint32_t threadId;
    uint32_t deviceId;
    uint32_t errorCode;
    const void* symbol;  // the failing kernel's address, or nullptr
};

namespace canopy::api {

namespace {
std::mutex callbacks_mutex;
std::vector<aclrtExceptionInfoCallback> callbacks;  // aclrtSetExceptionInfoCallback's one comes first
aclrtExceptionInfoCallback set_callback = nullptr;

void on_fault(const engine::TaskFault& fault) {
    std::vector<aclrtExceptionInfoCallback> targets;
    {
        std::lock_guard lock(callbacks_mutex);
        if (set_callback) targets.push_back(set_callback);
        targets.insert(targets.end(), callbacks.begin(), callbacks.end());
    }
    if (targets.empty()) return;
    rtExceptionInfo info{static_cast<uint32_t>(fault.task_id), static_cast<uint32_t>(fault.stream_id),
                         static_cast<uint32_t>(::syscall(SYS_gettid)), static_cast<uint32_t>(fault.device_id),
                         static_cast<uint32_t>(fault.code), fault.symbol};
    for (aclrtExceptionInfoCallback callback : targets) callback(&info);
}

// Installed with the first callback; the engine keeps it for the process's lifetime.
void install_handler() { engine::set_fault_handler(on_fault); }

bool is_kernel_fault(int code) {
    return code == ACL_ERROR_RT_AICORE_EXCEPTION || code == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION ||
           code == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION || code == ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION ||
           code == ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW || code == ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW ||
           code == ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW || code == ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW;
}
}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
    return call("aclrtSetExceptionInfoCallback", [&] {
        std::lock_guard lock(callbacks_mutex);
        set_callback = callback;
        install_handler();
    });
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
    return call("aclrtExceptionInfoCallbackRegister", [&] {
        if (!callback) fail(ACL_ERROR_INVALID_PARAM, "callback is NULL");
        std::lock_guard lock(callbacks_mutex);
        if (std::find(callbacks.begin(), callbacks.end(), callback) != callbacks.end())
            fail(ACL_ERROR_INVALID_PARAM, "callback is already registered");
        callbacks.push_back(callback);
        install_handler();
    });
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
    return call("aclrtExceptionInfoCallbackUnregister", [&] {
        if (!callback) fail(ACL_ERROR_INVALID_PARAM, "callback is NULL");
        std::lock_guard lock(callbacks_mutex);
        auto found = std::find(callbacks.begin(), callbacks.end(), callback);
        if (found == callbacks.end()) fail(ACL_ERROR_INVALID_PARAM, "callback is not registered");
        callbacks.erase(found);
    });
}

// The getters return 0xFFFFFFFF for a NULL info, as CANN does.
uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->taskId : UINT32_MAX; }
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->streamId : UINT32_MAX; }
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->threadId : UINT32_MAX; }
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->deviceId : UINT32_MAX; }
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) { return info ? info->errorCode : UINT32_MAX; }

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr, uint32_t* devArgsLen) {
    return call("aclrtGetArgsFromExceptionInfo", [&] {
        require(info, "info");
        require(devArgsPtr, "devArgsPtr");
        require(devArgsLen, "devArgsLen");
        // A launch keeps its arguments as the kernel's typed parameters, not as a device blob.
        fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "Canopy does not keep a failed launch's arguments as a device argument block");
    });
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func) {
    return call("aclrtGetFuncHandleFromExceptionInfo", [&] {
        require(info, "info");
        require(func, "func");
        if (!info->symbol) fail(ACL_ERROR_INVALID_PARAM, "info describes a task that is not a kernel launch");
        aclrtFuncHandle handle = nullptr;
        const aclError found = aclrtGetFuncBySymbol(info->symbol, &handle);
        if (found != ACL_SUCCESS) fail(found, "the failing kernel has no function handle");
        *func = handle;
    });
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
    return call("aclrtGetErrorVerbose", [&] {
        require(errorInfo, "errorInfo");
        engine::Device* device = reach_device(state(), deviceId);
        *errorInfo = aclrtErrorInfo{};
        errorInfo->errorType = ACL_RT_NO_ERROR;
        const engine::TaskFault fault = device ? device->last_fault() : engine::TaskFault{};
        if (fault.code == 0) return;
        // Every fault of a modelled device is the program's (software): nothing to repair.
        errorInfo->tryRepair = 0;
        if (is_kernel_fault(fault.code)) {
            errorInfo->errorType = ACL_RT_ERROR_AICORE;
            errorInfo->hasDetail = 1;
            errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
        } else {
            errorInfo->errorType = ACL_RT_ERROR_OTHERS;
        }
    });
}

}  // extern "C"
