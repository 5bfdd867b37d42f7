// aclrtStreamStop / aclrtStreamAbort on the engine: the running operation sees the stop request
// (a kernel checks it between blocks), abort drops the queued operations and says how many, and
// stop leaves them to run. Uses the engine directly, so that the running operation can wait for
// the request instead of for a time.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "canopy/engine/stream.h"

using namespace canopy::engine;

namespace {
constexpr auto kBound = std::chrono::seconds(60);

// Work that runs until its stream asks it to stop (bounded, so a broken runtime fails the test).
Operation until_stopped(std::atomic<bool>& started, std::atomic<bool>& saw_stop) {
    return Operation{OpKind::kernel, 1, "until_stopped", [&started, &saw_stop](OpRun& run) {
                         started = true;
                         const auto deadline = std::chrono::steady_clock::now() + kBound;
                         while (!run.stream().stop_requested(run.task_id()) && std::chrono::steady_clock::now() < deadline)
                             std::this_thread::yield();
                         saw_stop = run.stream().stop_requested(run.task_id());
                     }};
}

Operation count(std::atomic<int>& counter) {
    return Operation{OpKind::host_func, 0, nullptr, [&counter](OpRun&) { counter.fetch_add(1); }};
}

bool wait_for(const std::atomic<bool>& flag) {
    const auto deadline = std::chrono::steady_clock::now() + kBound;
    while (!flag && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    return flag;
}
}  // namespace

TEST_CASE("abort stops the running operation, drops the queued ones and says how many") {
    RuntimeConfig config;
    config.workers_per_device = 2;
    Device device(0, config);
    Stream stream(device.primary_context(), 0, 0);
    std::atomic<bool> started{false}, saw_stop{false};
    std::atomic<int> counter{0};
    stream.enqueue(until_stopped(started, saw_stop));
    for (int i = 0; i < 4; ++i) stream.enqueue(count(counter));
    REQUIRE(wait_for(started));

    CHECK(stream.abort() == 4);
    CHECK(saw_stop);
    CHECK(counter == 0);
    const Failure failure = stream.synchronize();
    CHECK(failure.code == ACL_ERROR_RT_STREAM_ABORT);
    CHECK(failure.message.find("4 queued operation(s) dropped") != std::string::npos);

    // The stream runs new work again, and the abort was reported once.
    stream.enqueue(count(counter));
    CHECK_FALSE(stream.synchronize());
    CHECK(counter == 1);
}

TEST_CASE("stop stops the running operation only; the queued ones still run") {
    RuntimeConfig config;
    config.workers_per_device = 2;
    Device device(0, config);
    Stream stream(device.primary_context(), 0, 0);
    std::atomic<bool> started{false}, saw_stop{false};
    std::atomic<int> counter{0};
    stream.enqueue(until_stopped(started, saw_stop));
    for (int i = 0; i < 3; ++i) stream.enqueue(count(counter));
    REQUIRE(wait_for(started));

    stream.stop();
    CHECK(saw_stop);
    CHECK_FALSE(stream.synchronize());
    CHECK(counter == 3);
    stream.stop();  // nothing runs: returns at once
}

TEST_CASE("task ids number a stream's operations from 1 in submission order") {
    RuntimeConfig config;
    Device device(0, config);
    Stream stream(device.primary_context(), 0, 0);
    std::atomic<std::uint64_t> seen[3] = {};
    for (auto& slot : seen) {
        stream.enqueue(Operation{OpKind::host_func, 0, nullptr, [&slot](OpRun& run) { slot = run.task_id(); }});
        CHECK(last_task_id() == static_cast<std::uint64_t>(&slot - seen + 1));
    }
    CHECK_FALSE(stream.synchronize());
    CHECK(seen[0] == 1);
    CHECK(seen[1] == 2);
    CHECK(seen[2] == 3);
}
