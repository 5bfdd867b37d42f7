// Host work: aclrtLaunchHostFunc, and aclrtLaunchCallback with aclrtSubscribeReport /
// aclrtProcessReport / aclrtUnSubscribeReport.
#include <mutex>
#include <chrono>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

// c_callers.c: aclrtLaunchCallback with a plain int block type, as a C program calls it.
extern "C" aclError canopy_test_launch_callback_raw(aclrtCallback fn, void* data, int block_type, aclrtStream stream);

namespace {
// Appends a number to a shared sequence; the stream order (or the test) orders the appends.
struct Sequence {
    std::mutex mutex;
    std::vector<int> values;
    void append(int value) {
        std::lock_guard lock(mutex);
        values.push_back(value);
    }
    std::vector<int> snapshot() {
        std::lock_guard lock(mutex);
        return values;
    }
};
struct Step {
    Sequence* sequence;
    int value;
};
void append_step(void* argument) {
    auto* step = static_cast<Step*>(argument);
    step->sequence->append(step->value);
}

// Records the thread a function ran on.
struct ThreadRecord {
    std::mutex mutex;
    std::vector<std::thread::id> threads;
};
void record_thread(void* argument) {
    auto* record = static_cast<ThreadRecord*>(argument);
    std::lock_guard lock(record->mutex);
    record->threads.push_back(std::this_thread::get_id());
}

// A thread that serves report callbacks: aclrtProcessReport in a loop until it is stopped.
class ReportThread {
public:
    ReportThread()
        : thread_([this] {
              while (!stop_.load()) {
                  const aclError rc = aclrtProcessReport(10);
                  // Not subscribed (yet, or any more): nothing to serve for now.
                  if (rc == ACL_ERROR_THREAD_NOT_SUBSCRIBE) std::this_thread::sleep_for(std::chrono::milliseconds(1));
              }
          }) {}
    ~ReportThread() {
        stop_ = true;
        thread_.join();
    }
    uint64_t id() { return static_cast<uint64_t>(thread_.native_handle()); }

private:
    std::atomic<bool> stop_{false};
    std::thread thread_;
};
}  // namespace

// ---- host functions

TEST_CASE("aclrtLaunchHostFunc runs the functions of a stream in launch order") {
    Runtime rt;
    Stream stream;
    constexpr int kCount = 2000;
    Sequence sequence;
    std::vector<Step> steps;
    steps.reserve(kCount);
    for (int i = 0; i < kCount; ++i) {
        steps.push_back(Step{&sequence, i});
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &append_step, &steps.back()));
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int> values = sequence.snapshot();
    REQUIRE(values.size() == kCount);
    for (int i = 0; i < kCount; ++i) REQUIRE(values[i] == i);
}

TEST_CASE("host functions never run on the thread that launches them") {
    ConfiguredRuntime rt(2);
    Stream stream;
    Gate gate;
    ThreadRecord record;
    // Held, so that every launch below happens while nothing of the stream can run.
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 200; ++i) REQUIRE_ACL(aclrtLaunchHostFunc(stream, &record_thread, &record));
    {
        std::lock_guard lock(record.mutex);
        CHECK(record.threads.empty());
    }
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    REQUIRE(record.threads.size() == 200);
}

// A synchronizing thread may run its own stream's ready work (it would wait for it anyway), but
// never another stream's: a host function there may block for long, or wait for this very thread.
TEST_CASE("a synchronizing thread runs none of another stream's host functions") {
    ConfiguredRuntime rt(1);
    Stream mine;
    Stream other;
    Gate gate;
    ThreadRecord record;
    REQUIRE_ACL(gate.hold(mine));
    REQUIRE(gate.wait_entered());  // the only worker is now held inside `mine`
    for (int i = 0; i < 200; ++i) REQUIRE_ACL(aclrtLaunchHostFunc(other, &record_thread, &record));
    // `other`'s host functions are ready while this thread waits for `mine`.
    std::thread opener([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        gate.open();
    });
    CHECK_ACL(aclrtSynchronizeStream(mine));
    opener.join();
    std::vector<std::thread::id> ran;
    {
        std::lock_guard lock(record.mutex);
        ran = record.threads;
    }
    int on_synchronizing_thread = 0;
    for (auto id : ran) on_synchronizing_thread += id == std::this_thread::get_id();
    CHECK(on_synchronizing_thread == 0);
    CHECK_ACL(aclrtSynchronizeStream(other));
}

TEST_CASE("aclrtLaunchHostFunc rejects a NULL function") {
    Runtime rt;
    CHECK_ACL_CODE(aclrtLaunchHostFunc(nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

// ---- report callbacks: argument and state errors

TEST_CASE("aclrtLaunchCallback on a stream nobody subscribed is ACL_ERROR_RT_STREAM_NO_CB_REG") {
    Runtime rt;
    Stream stream;
    std::atomic<int> counter{0};
    CHECK_ACL_CODE(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_NO_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK_ACL_CODE(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_BLOCK, nullptr), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 0);
}

TEST_CASE("aclrtLaunchCallback rejects a NULL function and an unknown block type") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    std::atomic<int> counter{0};
    CHECK_ACL_CODE(aclrtLaunchCallback(nullptr, &counter, ACL_CALLBACK_NO_BLOCK, stream), ACL_ERROR_INVALID_PARAM);
    // Called from C: C++ cannot form these enum values without undefined behaviour.
    CHECK_ACL_CODE(canopy_test_launch_callback_raw(&increment, &counter, 2, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(canopy_test_launch_callback_raw(&increment, &counter, -1, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(canopy_test_launch_callback_raw(&increment, &counter, ACL_CALLBACK_NO_BLOCK, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtProcessReport(kBoundMs));
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
    CHECK(counter == 1);  // only the valid launch ran
}

TEST_CASE("subscribing a stream that already has a subscribed thread is ACL_ERROR_REPEAT_SUBSCRIBE") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    CHECK_ACL_CODE(aclrtSubscribeReport(this_thread_id(), stream), ACL_ERROR_REPEAT_SUBSCRIBE);
    CHECK_ACL_CODE(aclrtSubscribeReport(this_thread_id() + 1, stream), ACL_ERROR_REPEAT_SUBSCRIBE);
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
    // Free again after the unsubscribe.
    CHECK_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
}

TEST_CASE("unsubscribing a stream the thread is not subscribed to is ACL_ERROR_STREAM_NOT_SUBSCRIBE") {
    Runtime rt;
    Stream stream;
    CHECK_ACL_CODE(aclrtUnSubscribeReport(this_thread_id(), stream), ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    CHECK_ACL_CODE(aclrtUnSubscribeReport(this_thread_id() + 1, stream), ACL_ERROR_STREAM_NOT_SUBSCRIBE);
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
    CHECK_ACL_CODE(aclrtUnSubscribeReport(this_thread_id(), stream), ACL_ERROR_STREAM_NOT_SUBSCRIBE);
}

TEST_CASE("aclrtProcessReport: timeout 0 or below -1 is INVALID_PARAM, unsubscribed 100035, nothing to run 100036") {
    Runtime rt;
    CHECK_ACL_CODE(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtProcessReport(INT32_MIN), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
    CHECK_ACL_CODE(aclrtProcessReport(-1), ACL_ERROR_THREAD_NOT_SUBSCRIBE);

    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_WAIT_CALLBACK_TIMEOUT);
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);

    // After the unsubscribe, launching is refused again.
    std::atomic<int> counter{0};
    CHECK_ACL_CODE(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_NO_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
}

// ---- report callbacks: behaviour

TEST_CASE("a NO_BLOCK callback runs in aclrtProcessReport on the subscribed thread and does not hold the stream") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    ThreadRecord callback_thread;
    std::atomic<int> after{0};
    REQUIRE_ACL(aclrtLaunchCallback(&record_thread, &callback_thread, ACL_CALLBACK_NO_BLOCK, stream));
    REQUIRE_ACL(launch_increment(stream, after));

    // The stream finishes without anybody processing the callback.
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(after == 1);
    CHECK(callback_thread.threads.empty());

    CHECK_ACL(aclrtProcessReport(kBoundMs));
    REQUIRE(callback_thread.threads.size() == 1);
    CHECK(callback_thread.threads[0] == std::this_thread::get_id());
    CHECK_ACL_CODE(aclrtProcessReport(10), ACL_ERROR_WAIT_CALLBACK_TIMEOUT);  // it ran once
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
}

TEST_CASE("a BLOCK callback holds its stream until the subscribed thread has processed it") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    Sequence sequence;
    Step callback_step{&sequence, 1}, after_step{&sequence, 2};
    REQUIRE_ACL(aclrtLaunchCallback(&append_step, &callback_step, ACL_CALLBACK_BLOCK, stream));
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &append_step, &after_step));

    // Nobody processed the callback yet: the stream cannot finish.
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    aclrtStreamStatus status;
    CHECK_ACL(aclrtStreamQuery(stream, &status));
    CHECK(status == ACL_STREAM_STATUS_NOT_READY);
    CHECK(sequence.snapshot().empty());

    CHECK_ACL(aclrtProcessReport(kBoundMs));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(sequence.snapshot() == std::vector<int>{1, 2});
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
}

TEST_CASE("a report thread runs BLOCK callbacks in stream order with the stream's host functions") {
    Runtime rt;
    Stream stream;
    ReportThread reporter;
    REQUIRE_ACL(aclrtSubscribeReport(reporter.id(), stream));
    constexpr int kCount = 200;
    Sequence sequence;
    std::vector<Step> steps;
    steps.reserve(kCount);
    for (int i = 0; i < kCount; ++i) {
        steps.push_back(Step{&sequence, i});
        if (i % 2 == 0) REQUIRE_ACL(aclrtLaunchHostFunc(stream, &append_step, &steps.back()));
        else REQUIRE_ACL(aclrtLaunchCallback(&append_step, &steps.back(), ACL_CALLBACK_BLOCK, stream));
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int> values = sequence.snapshot();
    REQUIRE(values.size() == kCount);
    for (int i = 0; i < kCount; ++i) REQUIRE(values[i] == i);
    CHECK_ACL(aclrtUnSubscribeReport(reporter.id(), stream));
}

TEST_CASE("NO_BLOCK callbacks of a stream are processed in launch order, one per aclrtProcessReport") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    constexpr int kCount = 50;
    Sequence sequence;
    std::vector<Step> steps;
    steps.reserve(kCount);
    for (int i = 0; i < kCount; ++i) {
        steps.push_back(Step{&sequence, i});
        REQUIRE_ACL(aclrtLaunchCallback(&append_step, &steps.back(), ACL_CALLBACK_NO_BLOCK, stream));
    }
    REQUIRE_ACL(aclrtSynchronizeStream(stream));  // every callback has been handed to this thread
    for (int i = 0; i < kCount; ++i) {
        CHECK_ACL(aclrtProcessReport(kBoundMs));
        CHECK(sequence.snapshot().size() == static_cast<std::size_t>(i + 1));
    }
    const std::vector<int> values = sequence.snapshot();
    for (int i = 0; i < kCount; ++i) CHECK(values[i] == i);
    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
}

TEST_CASE("one thread can serve the callbacks of several streams, including the default stream") {
    Runtime rt;
    Stream first, second;
    ReportThread reporter;
    REQUIRE_ACL(aclrtSubscribeReport(reporter.id(), first));
    REQUIRE_ACL(aclrtSubscribeReport(reporter.id(), second));
    REQUIRE_ACL(aclrtSubscribeReport(reporter.id(), nullptr));
    std::atomic<int> counter{0};
    for (int i = 0; i < 100; ++i) {
        REQUIRE_ACL(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_BLOCK, first));
        REQUIRE_ACL(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_BLOCK, second));
        REQUIRE_ACL(aclrtLaunchCallback(&increment, &counter, ACL_CALLBACK_BLOCK, nullptr));
    }
    CHECK_ACL(aclrtSynchronizeStream(first));
    CHECK_ACL(aclrtSynchronizeStream(second));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == 300);
    CHECK_ACL(aclrtUnSubscribeReport(reporter.id(), first));
    CHECK_ACL(aclrtUnSubscribeReport(reporter.id(), second));
    CHECK_ACL(aclrtUnSubscribeReport(reporter.id(), nullptr));
}

TEST_CASE("unsubscribing with a BLOCK callback still queued does not leave the stream blocked") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSubscribeReport(this_thread_id(), stream));
    std::atomic<int> callback{0}, after{0};
    REQUIRE_ACL(aclrtLaunchCallback(&increment, &callback, ACL_CALLBACK_BLOCK, stream));
    REQUIRE_ACL(launch_increment(stream, after));
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);

    CHECK_ACL(aclrtUnSubscribeReport(this_thread_id(), stream));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(callback == 1);  // run exactly once, not lost
    CHECK(after == 1);
}
