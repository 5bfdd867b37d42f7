// Canopy's side of the runtime benchmarks; the raw oneTBB baselines are in baseline.cpp.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl_runtime.h"
#include "driver.h"

namespace {

void check(aclError error, benchmark::State& state) {
    if (error != ACL_SUCCESS) state.SkipWithError(aclGetRecentErrMsg());
}

void ensure_runtime() { canopy::bench::acl_runtime(); }

void nothing(void*) {}

void launch_and_synchronize(benchmark::State& state) {
    ensure_runtime();
    aclrtStream stream;
    check(aclrtCreateStream(&stream), state);
    for (auto _ : state) {
        aclrtLaunchHostFunc(stream, nothing, nullptr);
        aclrtSynchronizeStream(stream);
    }
    aclrtDestroyStream(stream);
}
BENCHMARK(launch_and_synchronize)->Name("host_task_round_trip/canopy");

constexpr int chain_length = 100'000;

void stream_of_100k(benchmark::State& state) {
    ensure_runtime();
    aclrtStream stream;
    check(aclrtCreateStream(&stream), state);
    for (auto _ : state) {
        for (int i = 0; i < chain_length; ++i) aclrtLaunchHostFunc(stream, nothing, nullptr);
        aclrtSynchronizeStream(stream);
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
    aclrtDestroyStream(stream);
}
BENCHMARK(stream_of_100k)->Name("chain_100k/canopy")->Unit(benchmark::kMillisecond);

constexpr int hops = 10'000;

// Holds a stream (as its host function) without taking a core from the thread that enqueues.
struct Gate {
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;

    void close() {
        std::lock_guard lock(mutex);
        open = false;
    }
    void let_go() {
        {
            std::lock_guard lock(mutex);
            open = true;
        }
        opened.notify_all();
    }
};

void hold_until_open(void* argument) {
    auto* gate = static_cast<Gate*>(argument);
    std::unique_lock lock(gate->mutex);
    gate->opened.wait(lock, [gate] { return gate->open; });
}

// Two streams hand control back and forth through events: every hop is a cross-stream edge. The
// events are CANN's synchronization events (ACL_EVENT_SYNC); the timed variant uses aclrtCreateEvent's
// timestamped events, whose records also read the clock. Unheld, each record and wait finds its
// stream idle and needs no node; held, the hops are enqueued while the first stream is held by a
// host function, so that every record and wait is a node and every hop an edge between the
// streams' chains, run once the streams are let go (against that graph built and run in raw flow
// graph).
void event_ping_pong(benchmark::State& state, bool timed, bool held) {
    ensure_runtime();
    aclrtStream ping, pong;
    aclrtEvent to_pong, to_ping;
    check(aclrtCreateStream(&ping), state);
    check(aclrtCreateStream(&pong), state);
    for (aclrtEvent* event : {&to_pong, &to_ping})
        check(timed ? aclrtCreateEvent(event) : aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC), state);
    Gate gate;
    for (auto _ : state) {
        if (held) {
            gate.close();
            aclrtLaunchHostFunc(ping, hold_until_open, &gate);
        }
        for (int i = 0; i < hops / 2; ++i) {
            aclrtRecordEvent(to_pong, ping);
            aclrtStreamWaitEvent(pong, to_pong);
            aclrtRecordEvent(to_ping, pong);
            aclrtStreamWaitEvent(ping, to_ping);
        }
        if (held) gate.let_go();
        aclrtSynchronizeStream(ping);
        aclrtSynchronizeStream(pong);
    }
    state.SetItemsProcessed(state.iterations() * hops);
    aclrtDestroyEvent(to_pong);
    aclrtDestroyEvent(to_ping);
    aclrtDestroyStream(ping);
    aclrtDestroyStream(pong);
}
BENCHMARK_CAPTURE(event_ping_pong, sync, false, false)
    ->Name("event_ping_pong_10k_hops/canopy")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(event_ping_pong, timed, true, false)
    ->Name("event_ping_pong_timed_10k_hops/canopy")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(event_ping_pong, queued, false, true)
    ->Name("event_ping_pong_queued_10k_hops/canopy")
    ->Unit(benchmark::kMillisecond);

constexpr std::size_t copy_bytes = std::size_t{64} << 20;

void memcpy_async_64mib(benchmark::State& state) {
    ensure_runtime();
    aclrtStream stream;
    void* host = nullptr;
    void* device = nullptr;
    check(aclrtCreateStream(&stream), state);
    check(aclrtMallocHost(&host, copy_bytes), state);
    check(aclrtMalloc(&device, copy_bytes, ACL_MEM_MALLOC_HUGE_FIRST), state);
    std::memset(host, 1, copy_bytes);
    std::memset(device, 0, copy_bytes);  // warm: pages are touched before timing
    for (auto _ : state) {
        aclrtMemcpyAsync(device, copy_bytes, host, copy_bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
        aclrtSynchronizeStream(stream);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(copy_bytes));
    aclrtFree(device);
    aclrtFreeHost(host);
    aclrtDestroyStream(stream);
}
BENCHMARK(memcpy_async_64mib)->Name("memcpy_h2d_64mib/canopy")->Unit(benchmark::kMillisecond)->UseRealTime();

double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// An idle process holding 8 streams (after they have done some work) must not burn CPU: no polling
// thread. Reported as a counter: percent of one core over one second.
void idle_with_8_streams(benchmark::State& state) {
    ensure_runtime();
    std::vector<aclrtStream> streams(8);
    for (auto& stream : streams) {
        check(aclrtCreateStream(&stream), state);
        aclrtLaunchHostFunc(stream, nothing, nullptr);
        aclrtSynchronizeStream(stream);
    }
    double percent = 0;
    for (auto _ : state) {
        const double before = process_cpu_seconds();
        std::this_thread::sleep_for(std::chrono::seconds(1));
        percent = (process_cpu_seconds() - before) * 100.0;
    }
    state.counters["cpu_percent_of_one_core"] = percent;
    for (auto stream : streams) aclrtDestroyStream(stream);
}
BENCHMARK(idle_with_8_streams)->Name("idle_8_streams_1s")->Iterations(1)->Unit(benchmark::kMillisecond);

const bool targets = [] {
    canopy::bench::register_target("host_task_round_trip", 5.0);
    canopy::bench::register_target("chain_100k", 3.0);
    canopy::bench::register_target("event_ping_pong_10k_hops", 5.0);
    canopy::bench::register_target("memcpy_h2d_64mib", 0.0, 0.9);
    return true;
}();

}  // namespace
