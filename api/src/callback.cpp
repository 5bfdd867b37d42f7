// Work that runs on a subscribed host thread: callbacks (aclrtLaunchCallback, run inside the
// aclrtProcessReport of the thread subscribed with aclrtSubscribeReport) and the host functions of
// a stream that has a host-function thread (aclrtSubscribeHostFunc, run inside its
// aclrtProcessHostFunc; aclrtLaunchHostFunc on a stream without one runs on the device's workers).
#include <pthread.h>

#include "api.h"

using namespace canopy;
using namespace canopy::api;

namespace {
using Result = engine::ReportHub::Result;
using Channel = engine::ReportHub::Channel;

std::uint64_t calling_thread() { return static_cast<std::uint64_t>(pthread_self()); }

void subscribe(Channel channel, uint64_t thread_id, aclrtStream stream) {
    State& s = state();
    if (s.runtime.reports().subscribe(channel, thread_id, target_stream(s, stream, "stream")) == Result::repeat_subscribe)
        fail(ACL_ERROR_REPEAT_SUBSCRIBE, "stream " + describe(stream) + " already has a subscribed thread");
}

void unsubscribe(Channel channel, uint64_t thread_id, aclrtStream stream) {
    State& s = state();
    if (s.runtime.reports().unsubscribe(channel, thread_id, target_stream(s, stream, "stream")) != Result::ok) {
        fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
             "thread " + std::to_string(thread_id) + " is not subscribed to stream " + describe(stream));
    }
}

void process(Channel channel, int32_t timeout) {
    State& s = state();
    if (timeout == 0 || timeout < -1)
        fail(ACL_ERROR_INVALID_PARAM, "timeout " + std::to_string(timeout) + " must be -1 or positive");
    switch (s.runtime.reports().process(channel, calling_thread(), timeout)) {
        case Result::ok: return;
        case Result::timeout:
            fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, "nothing arrived within " + std::to_string(timeout) + " ms");
        default: fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE, "the calling thread is not subscribed to any stream");
    }
}
}  // namespace

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    return call("aclrtSubscribeReport", [&] { subscribe(Channel::callback, threadId, stream); });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
    return call("aclrtUnSubscribeReport", [&] { unsubscribe(Channel::callback, threadId, stream); });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
    return call("aclrtLaunchCallback", [&] {
        require(fn, "fn");
        State& s = state();
        const auto block = raw_value(blockType);
        if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK)
            fail(ACL_ERROR_INVALID_PARAM, "blockType " + std::to_string(block) + " is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK");
        engine::Stream& target = target_stream(s, stream, "stream");
        if (!s.runtime.reports().launch(Channel::callback, target, fn, userData, block == ACL_CALLBACK_BLOCK))
            fail(ACL_ERROR_RT_STREAM_NO_CB_REG, "no thread is subscribed to stream " + describe(stream) + " (aclrtSubscribeReport)");
    });
}

aclError aclrtProcessReport(int32_t timeout) {
    return call("aclrtProcessReport", [&] { process(Channel::callback, timeout); });
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    return call("aclrtSubscribeHostFunc", [&] { subscribe(Channel::host_func, hostFuncThreadId, exeStream); });
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
    return call("aclrtUnSubscribeHostFunc", [&] { unsubscribe(Channel::host_func, hostFuncThreadId, exeStream); });
}

aclError aclrtProcessHostFunc(int32_t timeout) {
    return call("aclrtProcessHostFunc", [&] { process(Channel::host_func, timeout); });
}

}  // extern "C"
