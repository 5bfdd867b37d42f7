// The calling thread's last error: its code for aclrtGetLastError / aclrtPeekAtLastError and its
// text, naming the call and the argument, for aclGetRecentErrMsg (which consumes it).
#include <cstdio>

#include "api.h"

namespace canopy::api {

namespace {
thread_local aclError last_error = ACL_SUCCESS;
thread_local std::string last_message;
thread_local bool has_message = false;
// The text when there was no memory to compose it: call() must not throw from its handlers.
thread_local char unallocated_message[512];
thread_local bool message_unallocated = false;
}  // namespace

void fail(aclError code, std::string message) { throw Error{code, std::move(message)}; }

void record_error(const char* api, aclError code, const char* message) noexcept {
    last_error = code;
    has_message = true;
    try {
        last_message = std::string(api) + ": " + message + " (error " + std::to_string(code) + ")";
        message_unallocated = false;
    } catch (const std::bad_alloc&) {
        std::snprintf(unallocated_message, sizeof unallocated_message, "%s: %s (error %d)", api, message, code);
        message_unallocated = true;
    }
}

std::string describe(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    return text;
}

void check(const engine::Failure& failure) {
    if (failure) fail(failure.code, failure.message);
}

}  // namespace canopy::api

using namespace canopy::api;

extern "C" {

// Reading the message consumes it, as in CANN: the returned text stays valid until the next call.
const char* aclGetRecentErrMsg(void) {
    thread_local std::string returned;
    if (!has_message) return nullptr;
    if (message_unallocated) {
        has_message = false;
        return unallocated_message;
    }
    returned = std::move(last_message);
    last_message.clear();
    has_message = false;
    return returned.c_str();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
    if (raw_value(level) != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
    return std::exchange(last_error, ACL_SUCCESS);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    if (raw_value(level) != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
    return last_error;
}

}  // extern "C"
