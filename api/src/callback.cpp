// Callbacks: aclrtLaunchCallback runs on a thread subscribed with aclrtSubscribeReport, inside its
// aclrtProcessReport.
#include <pthread.h>

#include "api.h"

using namespace canopy;
using namespace canopy::api;

namespace {
using Result = engine::ReportHub::Result;

std::uint64_t calling_thread() { return static_cast<std::uint64_t>(pthread_self()); }
}  // namespace

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    return call("aclrtSubscribeReport", [&] {
        State& s = state();
        if (s.runtime.reports().subscribe(threadId, target_stream(s, stream, "stream")) == Result::repeat_subscribe)
            fail(ACL_ERROR_REPEAT_SUBSCRIBE, "stream " + describe(stream) + " already has a subscribed thread");
    });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
    return call("aclrtUnSubscribeReport", [&] {
        State& s = state();
        if (s.runtime.reports().unsubscribe(threadId, target_stream(s, stream, "stream")) != Result::ok) {
            fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE, "thread " + std::to_string(threadId) + " is not subscribed to stream " +
                                                     describe(stream));
        }
    });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
    return call("aclrtLaunchCallback", [&] {
        require(fn, "fn");
        State& s = state();
        const auto block = raw_value(blockType);
        if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK)
            fail(ACL_ERROR_INVALID_PARAM, "blockType " + std::to_string(block) + " is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK");
        engine::Stream& target = target_stream(s, stream, "stream");
        if (!s.runtime.reports().launch(target, fn, userData, block == ACL_CALLBACK_BLOCK))
            fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "no thread is subscribed to stream " + describe(stream) + " (aclrtSubscribeReport)");
    });
}

aclError aclrtProcessReport(int32_t timeout) {
    return call("aclrtProcessReport", [&] {
        State& s = state();
        if (timeout == 0 || timeout < -1)
            fail(ACL_ERROR_INVALID_PARAM, "timeout " + std::to_string(timeout) + " must be -1 or positive");
        switch (s.runtime.reports().process(calling_thread(), timeout)) {
            case Result::ok: return;
            case Result::timeout:
                fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "no callback arrived within " + std::to_string(timeout) + " ms");
            default:
                fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE, "the calling thread is not subscribed to any stream");
        }
    });
}

}  // extern "C"
