// Host functions with a subscribed thread: aclrtSubscribeHostFunc, aclrtProcessHostFunc,
// aclrtUnSubscribeHostFunc; aclrtLaunchHostFunc then runs on that thread, in stream order.
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
struct Seen {
    std::mutex mutex;
    std::vector<uint64_t> threads;
    std::vector<int> order;
};
struct Call {
    Seen* seen;
    int index;
};
void record(void* argument) {
    auto* call = static_cast<Call*>(argument);
    std::lock_guard lock(call->seen->mutex);
    call->seen->threads.push_back(this_thread_id());
    call->seen->order.push_back(call->index);
}
}  // namespace

TEST_CASE("a subscribed thread runs the stream's host functions inside aclrtProcessHostFunc") {
    Runtime runtime;
    Stream stream;
    aclrtContext context = runtime.context();
    std::atomic<bool> subscribed{false}, stop{false};
    std::atomic<uint64_t> processor_id{0};
    std::atomic<int> processed{0};
    std::thread processor([&] {
        aclrtSetCurrentContext(context);
        processor_id = this_thread_id();
        while (!subscribed) std::this_thread::yield();
        while (!stop) {
            if (aclrtProcessHostFunc(10) == ACL_SUCCESS) ++processed;
        }
    });
    while (processor_id == 0) std::this_thread::yield();
    REQUIRE_ACL(aclrtSubscribeHostFunc(processor_id, stream));
    subscribed = true;
    Seen seen;
    std::vector<Call> calls;
    calls.reserve(5);
    std::atomic<int> after{0};
    for (int i = 0; i < 5; ++i) {
        calls.push_back(Call{&seen, i});
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, record, &calls.back()));
    }
    REQUIRE_ACL(launch_increment(stream, after));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    stop = true;
    processor.join();
    CHECK(processed.load() == 6);
    CHECK(seen.order == std::vector<int>{0, 1, 2, 3, 4});
    for (uint64_t thread : seen.threads) CHECK(thread == processor_id.load());
    CHECK(after.load() == 1);
    REQUIRE_ACL(aclrtUnSubscribeHostFunc(processor_id, stream));
    // Unsubscribed: host functions run on the device's workers again.
    REQUIRE_ACL(launch_increment(stream, after));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(after.load() == 2);
}

TEST_CASE("host-function and report subscriptions are separate channels") {
    Runtime runtime;
    Stream stream;
    const uint64_t self = this_thread_id();
    REQUIRE_ACL(aclrtSubscribeHostFunc(self, stream));
    CHECK_ACL_CODE(aclrtSubscribeHostFunc(self, stream), ACL_ERROR_REPEAT_SUBSCRIBE);
    // No report thread: a callback cannot be launched although a host-function thread exists.
    CHECK_ACL_CODE(aclrtLaunchCallback(increment, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
    CHECK_ACL_CODE(aclrtProcessHostFunc(10), ACL_ERROR_WAIT_CALLBACK_TIMEOUT);
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtProcessHostFunc(kBoundMs));
    CHECK(counter.load() == 1);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    REQUIRE_ACL(aclrtUnSubscribeHostFunc(self, stream));
    CHECK_ACL_CODE(aclrtUnSubscribeHostFunc(self, stream), ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    CHECK_ACL_CODE(aclrtProcessHostFunc(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
    CHECK_ACL_CODE(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtProcessHostFunc(-2), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSubscribeHostFunc(self, reinterpret_cast<aclrtStream>(0x55)), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("unsubscribing runs the host functions still queued for the stream") {
    Runtime runtime;
    Stream stream;
    const uint64_t self = this_thread_id();
    REQUIRE_ACL(aclrtSubscribeHostFunc(self, stream));
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtUnSubscribeHostFunc(self, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter.load() == 2);
}
