// Events: record, cross-stream wait, re-recording, reset, synchronization, queries and timing.
#include <algorithm>
#include <chrono>
#include <climits>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
// Host function: waits `ms` milliseconds of real time (used to make a measurable interval, never
// to let other work finish).
void spend_50ms(void*) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

// Host function: copies `source` into `destination` (both std::atomic<int>).
struct Snapshot {
    std::atomic<int>* source;
    std::atomic<int> destination{-1};
};
void take_snapshot(void* argument) {
    auto* snapshot = static_cast<Snapshot*>(argument);
    snapshot->destination = snapshot->source->load();
}

aclrtEventRecordedStatus recorded_status(aclrtEvent event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(event, &status));
    return status;
}
}  // namespace

TEST_CASE("events are created with or without flags and destroyed") {
    Runtime rt;
    aclrtEvent event = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&event));
    CHECK_ACL(aclrtDestroyEvent(event));
    REQUIRE_ACL(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    CHECK_ACL(aclrtDestroyEvent(event));
    REQUIRE_ACL(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    CHECK_ACL(aclrtDestroyEvent(event));
    CHECK_ACL_CODE(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateEventWithFlag(&event, 0x80000000u), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("a recorded event completes when the work enqueued before the record has run") {
    Runtime rt;
    Stream stream;
    Event event;
    Gate gate;
    std::atomic<int> counter{0};
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < 100; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_NOT_READY);

    gate.open();
    CHECK_ACL(aclrtSynchronizeEvent(event));
    CHECK(counter == 100);
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_CASE("a stream that waits on an event does not run before the record point") {
    ConfiguredRuntime rt(4);
    Stream producer, consumer;
    Event event;
    Gate gate;
    std::atomic<int> produced{0};
    Snapshot seen{&produced};

    REQUIRE_ACL(gate.hold(producer));
    REQUIRE_ACL(launch_increment(producer, produced));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));
    REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
    REQUIRE_ACL(aclrtLaunchHostFunc(consumer, &take_snapshot, &seen));

    // The consumer is held by the producer's gate.
    aclrtStreamStatus status;
    CHECK_ACL(aclrtStreamQuery(consumer, &status));
    CHECK(status == ACL_STREAM_STATUS_NOT_READY);
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);

    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    CHECK(seen.destination == 1);  // the consumer ran after the producer's increment
}

TEST_CASE("a wait depends on the most recent record made before it, not on later records") {
    ConfiguredRuntime rt(4);
    Stream producer, consumer;
    Event event;
    Gate first, second;
    Flag consumer_ran;

    REQUIRE_ACL(first.hold(producer));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));
    REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));  // captures the first record
    REQUIRE_ACL(aclrtLaunchHostFunc(consumer, [](void* flag) { static_cast<Flag*>(flag)->set(); }, &consumer_ran));
    REQUIRE_ACL(second.hold(producer));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));  // re-recorded: later waits see this one

    first.open();
    // The consumer runs while the second gate still holds the producer.
    CHECK(consumer_ran.wait());
    CHECK(second.left() == 0);
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_NOT_READY);

    // A wait made now depends on the second record.
    REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
    std::atomic<int> after_second{0};
    REQUIRE_ACL(launch_increment(consumer, after_second));
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    second.open();
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    CHECK(after_second == 1);
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_CASE("an event can be recorded, waited on and reused many times") {
    ConfiguredRuntime rt(2);
    Stream producer, consumer;
    Event event;
    std::atomic<int> produced{0};
    constexpr int kRounds = 200;
    std::vector<Snapshot> seen(kRounds);
    for (int round = 0; round < kRounds; ++round) {
        REQUIRE_ACL(launch_increment(producer, produced));
        REQUIRE_ACL(aclrtRecordEvent(event, producer));
        REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
        seen[round].source = &produced;
        REQUIRE_ACL(aclrtLaunchHostFunc(consumer, &take_snapshot, &seen[round]));
    }
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    CHECK_ACL(aclrtSynchronizeStream(producer));
    for (int round = 0; round < kRounds; ++round) {
        CAPTURE(round);
        CHECK(seen[round].destination >= round + 1);
    }
}

TEST_CASE("records and waits on an idle stream take their task ids in order and complete at once") {
    Runtime rt;
    Stream stream;
    Event event;
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    uint32_t first = 0, second = 0, third = 0;
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE_ACL(aclrtGetThreadLastTaskId(&first));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    REQUIRE_ACL(aclrtStreamWaitEvent(stream, event));
    REQUIRE_ACL(aclrtGetThreadLastTaskId(&second));
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(stream, counter));
    REQUIRE_ACL(aclrtGetThreadLastTaskId(&third));
    CHECK(second == first + 1);
    CHECK(third == second + 1);
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(counter == 1);
}

namespace {
// Host function: counts the records of `events` that have completed, in order (they are recorded in
// order on the stream that runs the check, so they complete in order).
struct CompletedRecords {
    const std::vector<Event>* events;
    std::size_t cursor = 0;
};
struct RecordCheck {
    CompletedRecords* records = nullptr;
    uint32_t task = 0;
    std::size_t completed = 0;
};
void count_completed_records(void* argument) {
    auto* check = static_cast<RecordCheck*>(argument);
    CompletedRecords& records = *check->records;
    while (records.cursor < records.events->size()) {
        aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        aclrtQueryEventStatus((*records.events)[records.cursor], &status);
        if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) break;
        ++records.cursor;
    }
    check->completed = records.cursor;
}
}  // namespace

// A record on an idle stream completes on the recording thread; an operation that another thread
// enqueues behind it on the same stream while it does (and that may run before the record is
// counted finished) must find it complete. Task ids say which records were enqueued before each
// check. Records on the idle stream and on one busy with the checks both occur.
TEST_CASE("an operation enqueued behind a record by another thread finds the record complete") {
    ConfiguredRuntime rt(2);
    Stream stream;
    constexpr int kRecords = 3000;
    std::vector<Event> events(kRecords);
    std::vector<uint32_t> record_tasks(kRecords, 0);
    std::atomic<bool> started{false}, recording{true};
    std::atomic<int> failed_records{0};
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtGetCurrentContext(&context));
    std::thread recorder([&] {
        if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++failed_records;
        while (!started.load()) std::this_thread::yield();
        for (int i = 0; i < kRecords; ++i) {
            if (aclrtRecordEvent(events[i], stream) != ACL_SUCCESS) ++failed_records;
            aclrtGetThreadLastTaskId(&record_tasks[i]);
        }
        recording = false;
    });
    CompletedRecords records{&events};
    std::vector<RecordCheck> checks(20 * kRecords);
    std::size_t launched = 0;
    started = true;
    while (recording.load() && launched < checks.size()) {
        RecordCheck& check = checks[launched++];
        check.records = &records;
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &count_completed_records, &check));
        REQUIRE_ACL(aclrtGetThreadLastTaskId(&check.task));
    }
    recorder.join();
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(failed_records == 0);
    // Records enqueued before each check, against those it found complete.
    int late = 0;
    for (std::size_t i = 0; i < launched; ++i) {
        const auto before = static_cast<std::size_t>(
            std::lower_bound(record_tasks.begin(), record_tasks.end(), checks[i].task) - record_tasks.begin());
        if (checks[i].completed < before) ++late;
    }
    CHECK(launched > 0);
    CHECK(late == 0);
}

TEST_CASE("waiting on an event that was never recorded is a no-op") {
    Runtime rt;
    Stream stream;
    Event event;
    std::atomic<int> counter{0};
    CHECK_ACL(aclrtStreamWaitEvent(stream, event));
    CHECK_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(counter == 1);
}

TEST_CASE("a never-recorded event: query NOT_READY, wait status COMPLETE, synchronize returns at once") {
    Runtime rt;
    Event event;
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    aclrtEventWaitStatus wait_status = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_ACL(aclrtQueryEventWaitStatus(event, &wait_status));
    CHECK(wait_status == ACL_EVENT_WAIT_STATUS_COMPLETE);
    CHECK_ACL(aclrtSynchronizeEvent(event));
    CHECK_ACL(aclrtSynchronizeEventWithTimeout(event, 0));
}

TEST_CASE("aclrtQueryEventWaitStatus is NOT_READY until the record has run") {
    Runtime rt;
    Stream stream;
    Event event;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_ACL(aclrtQueryEventWaitStatus(event, &status));
    CHECK(status == ACL_EVENT_WAIT_STATUS_NOT_READY);
    gate.open();
    CHECK_ACL(aclrtSynchronizeEvent(event));
    CHECK_ACL(aclrtQueryEventWaitStatus(event, &status));
    CHECK(status == ACL_EVENT_WAIT_STATUS_COMPLETE);
    CHECK_ACL_CODE(aclrtQueryEventWaitStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtQueryEventStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtSynchronizeEventWithTimeout: expiry is 507047, below -1 is 107000, -1 waits") {
    Runtime rt;
    Stream stream;
    Event event;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    CHECK_ACL_CODE(aclrtSynchronizeEventWithTimeout(event, 0), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    CHECK_ACL_CODE(aclrtSynchronizeEventWithTimeout(event, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    CHECK_ACL_CODE(aclrtSynchronizeEventWithTimeout(event, -2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtSynchronizeEventWithTimeout(event, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    gate.open();
    CHECK_ACL(aclrtSynchronizeEventWithTimeout(event, -1));
    CHECK_ACL(aclrtSynchronizeEventWithTimeout(event, 0));
    CHECK_ACL(aclrtSynchronizeEventWithTimeout(event, 100));
}

TEST_CASE("aclrtEventElapsedTime: never recorded is 507000, unfinished is 507006, else milliseconds") {
    Runtime rt;
    Stream stream;
    Event start(ACL_EVENT_TIME_LINE), end(ACL_EVENT_TIME_LINE);
    float ms = -1;
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_INTERNAL_ERROR);

    REQUIRE_ACL(aclrtRecordEvent(start, stream));
    REQUIRE_ACL(aclrtSynchronizeEvent(start));
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_INTERNAL_ERROR);  // end never recorded

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &spend_50ms, nullptr));
    REQUIRE_ACL(aclrtRecordEvent(end, stream));
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);

    gate.open();
    REQUIRE_ACL(aclrtSynchronizeEvent(end));
    CHECK_ACL(aclrtEventElapsedTime(&ms, start, end));
    // At least the 50 ms the stream spent between the records; far less than a minute.
    CHECK(ms >= 49.0f);
    CHECK(ms < 60000.0f);
    CHECK_ACL_CODE(aclrtEventElapsedTime(nullptr, start, end), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("only events with timestamps time: aclrtCreateEvent's, and flags with ACL_EVENT_TIME_LINE") {
    Runtime rt;
    Stream stream;
    aclrtEvent plain = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&plain));
    Event timed(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE), sync_only(ACL_EVENT_SYNC);
    for (aclrtEvent event : {plain, static_cast<aclrtEvent>(timed), static_cast<aclrtEvent>(sync_only)})
        REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    float ms = -1;
    CHECK_ACL(aclrtEventElapsedTime(&ms, plain, timed));
    CHECK(ms >= 0.0f);
    uint64_t timestamp = 0;
    CHECK_ACL(aclrtEventGetTimestamp(plain, &timestamp));
    // A synchronization-only event still completes and orders streams, but tells no time.
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, plain, sync_only), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("endEvent") != std::string::npos);
    CHECK(recent_error().find("ACL_EVENT_TIME_LINE") != std::string::npos);
    CHECK_ACL_CODE(aclrtEventGetTimestamp(sync_only, &timestamp), ACL_ERROR_INVALID_PARAM);
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(sync_only, &status));
    CHECK(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_ACL(aclrtDestroyEvent(plain));
}

TEST_CASE("aclrtEventGetTimestamp: errors before completion, later records have later timestamps") {
    Runtime rt;
    Stream stream;
    Event first(ACL_EVENT_TIME_LINE), second(ACL_EVENT_TIME_LINE);
    uint64_t t1 = 0, t2 = 0;
    CHECK_ACL_CODE(aclrtEventGetTimestamp(first, &t1), ACL_ERROR_RT_INTERNAL_ERROR);

    Gate gate;
    REQUIRE_ACL(aclrtRecordEvent(first, stream));
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &spend_50ms, nullptr));
    REQUIRE_ACL(aclrtRecordEvent(second, stream));
    CHECK_ACL_CODE(aclrtEventGetTimestamp(second, &t2), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtEventGetTimestamp(first, &t1));
    CHECK_ACL(aclrtEventGetTimestamp(second, &t2));
    CHECK(t2 > t1);
    CHECK(t2 - t1 >= 49'000);  // at least 50 ms in microseconds (or a finer unit)
    CHECK_ACL_CODE(aclrtEventGetTimestamp(first, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtResetEvent returns the event to the never-recorded state, in stream order") {
    Runtime rt;
    Stream stream;
    Event event;
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE_ACL(aclrtSynchronizeEvent(event));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);

    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    CHECK_ACL(aclrtResetEvent(event, stream));
    // The reset is queued behind the gate: the record still stands.
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    float ms = 0;
    CHECK_ACL_CODE(aclrtEventElapsedTime(&ms, event, event), ACL_ERROR_RT_INTERNAL_ERROR);

    // Reusable after the reset.
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    CHECK_ACL(aclrtSynchronizeEvent(event));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_ACL_CODE(aclrtResetEvent(nullptr, stream), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("a record after a queued reset stands") {
    Runtime rt;
    Stream stream;
    Event event;
    CHECK_ACL(aclrtResetEvent(event, stream));
    CHECK_ACL(aclrtRecordEvent(event, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_CASE("record and wait on the NULL stream use the default stream") {
    ConfiguredRuntime rt(4);
    Event event;
    Gate gate;
    REQUIRE_ACL(gate.hold(nullptr));
    CHECK_ACL(aclrtRecordEvent(event, nullptr));
    CHECK(recorded_status(event) == ACL_EVENT_RECORDED_STATUS_NOT_READY);

    Stream waiter;
    std::atomic<int> counter{0};
    CHECK_ACL(aclrtStreamWaitEvent(waiter, event));
    CHECK_ACL(launch_increment(waiter, counter));
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(waiter, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(waiter));
    CHECK(counter == 1);

    // And the default stream can wait too.
    Stream other;
    Event second;
    CHECK_ACL(aclrtRecordEvent(second, other));
    CHECK_ACL(aclrtStreamWaitEvent(nullptr, second));
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == 2);
}

TEST_CASE("one record can release several waiting streams") {
    ConfiguredRuntime rt(4);
    Stream producer;
    Event event;
    Gate gate;
    REQUIRE_ACL(gate.hold(producer));
    REQUIRE_ACL(aclrtRecordEvent(event, producer));
    constexpr int kWaiters = 6;
    std::atomic<int> counter{0};
    std::vector<std::unique_ptr<Stream>> waiters;
    for (int i = 0; i < kWaiters; ++i) {
        waiters.push_back(std::make_unique<Stream>());
        REQUIRE_ACL(aclrtStreamWaitEvent(*waiters.back(), event));
        REQUIRE_ACL(launch_increment(*waiters.back(), counter));
    }
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(*waiters.front(), 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(counter == 0);
    gate.open();
    for (auto& waiter : waiters) CHECK_ACL(aclrtSynchronizeStream(*waiter));
    CHECK(counter == kWaiters);
}

TEST_CASE("an event can be destroyed while its record is pending") {
    Runtime rt;
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    aclrtEvent event = nullptr;
    REQUIRE_ACL(aclrtCreateEvent(&event));
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtRecordEvent(event, stream));
    REQUIRE_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtDestroyEvent(event));  // does not wait for the record
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 1);
    aclrtEventRecordedStatus status;
    CHECK_ACL_CODE(aclrtQueryEventStatus(event, &status), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("aclrtRecordEvent and aclrtStreamWaitEvent reject a NULL event") {
    Runtime rt;
    Stream stream;
    CHECK_ACL_CODE(aclrtRecordEvent(nullptr, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtStreamWaitEvent(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSynchronizeEvent(nullptr), ACL_ERROR_INVALID_PARAM);
}
