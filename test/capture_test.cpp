// Stream capture and replay (engine/src/capture.cpp, engine/src/captured_graph.cpp): what a capture
// records and never runs, fork and join through events, replays with exact results, the capture
// modes on several threads, every error of the capture calls, task group updates, conditional
// tasks, external events, replays on two streams and destroying a model while it runs.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"
#include "capture_kernels.h"
#include "support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kCount = 256;
constexpr size_t kBytes = kCount * sizeof(float);

// Page-locked host memory, so that asynchronous copies are stream work a capture records.
class PinnedFloats {
public:
    explicit PinnedFloats(size_t count) : count_(count) {
        REQUIRE_ACL(aclrtMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(float)));
        std::memset(data_, 0, count * sizeof(float));
    }
    ~PinnedFloats() { aclrtFreeHost(data_); }
    PinnedFloats(const PinnedFloats&) = delete;
    PinnedFloats& operator=(const PinnedFloats&) = delete;
    float* get() const { return data_; }
    float& operator[](size_t i) const { return data_[i]; }

private:
    size_t count_;
    float* data_ = nullptr;
};

void count_call(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); }

// Counts how many of its calls overlap.
struct Overlap {
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    std::atomic<int> calls{0};
};
void enter_and_leave(void* data) {
    auto* overlap = static_cast<Overlap*>(data);
    const int now = overlap->inside.fetch_add(1) + 1;
    int most = overlap->most.load();
    while (now > most && !overlap->most.compare_exchange_weak(most, now)) {}
    std::this_thread::yield();
    overlap->calls.fetch_add(1);
    overlap->inside.fetch_sub(1);
}

// A host function that blocks until opened, every time it runs.
struct Latch {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    int entered = 0;
    int left = 0;
};
void wait_for_latch(void* data) {
    auto* latch = static_cast<Latch*>(data);
    std::unique_lock lock(latch->mutex);
    ++latch->entered;
    latch->cv.notify_all();
    latch->cv.wait_for(lock, kBound, [&] { return latch->open; });
    ++latch->left;
}

aclmdlRICaptureStatus status_of(aclrtStream stream, aclmdlRI* model = nullptr) {
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI found = nullptr;
    CHECK_ACL(aclmdlRICaptureGetInfo(stream, &status, &found));
    if (model) *model = found;
    return status;
}

}  // namespace

TEST_CASE("a captured two-stream pipeline records without running and replays 1000 times exactly") {
    Runtime runtime;
    Stream origin, side;
    Event forked(ACL_EVENT_SYNC), joined(ACL_EVENT_SYNC);
    PinnedFloats input(kCount), output(kCount);
    DeviceArray<float> staged(kCount), scaled(kCount), result(kCount);
    std::atomic<int> host_calls{0};

    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtMemcpyAsync(staged.get(), kBytes, input.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, origin));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    // The side stream joins the capture by waiting for an event the origin recorded.
    CHECK_ACL(aclrtStreamWaitEvent(side, forked));
    aclmdlRI seen_origin = nullptr, seen_side = nullptr;
    CHECK(status_of(origin, &seen_origin) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK(status_of(side, &seen_side) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK(seen_origin == seen_side);
    CHECK_ACL(aclrtMemsetAsync(scaled.get(), kBytes, 0, kBytes, side));
    CHECK(launch_capture_axpy(4, side, staged.get(), scaled.get(), 3.0f, kCount) == 0);
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &host_calls));
    CHECK_ACL(aclrtRecordEvent(joined, side));
    CHECK_ACL(aclrtStreamWaitEvent(origin, joined));
    CHECK_ACL(aclrtMemcpyAsync(result.get(), kBytes, scaled.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, origin));
    CHECK_ACL(aclrtMemcpyAsync(output.get(), kBytes, result.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, origin));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(origin, &model));
    CHECK(model == seen_origin);
    CHECK(status_of(origin) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK(status_of(side) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);

    // Nothing captured has run.
    CHECK_ACL(aclrtSynchronizeStream(origin));
    CHECK_ACL(aclrtSynchronizeStream(side));
    CHECK(host_calls.load() == 0);
    for (float value : result.read()) CHECK(value == 0.0f);

    const int replays = 1000;
    int mismatches = 0;
    for (int round = 0; round < replays; ++round) {
        for (uint32_t i = 0; i < kCount; ++i) input[i] = static_cast<float>(round + static_cast<int>(i));
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, origin));
        REQUIRE_ACL(aclrtSynchronizeStream(origin));
        for (uint32_t i = 0; i < kCount; ++i)
            if (output[i] != 3.0f * static_cast<float>(round + static_cast<int>(i))) ++mismatches;
    }
    CHECK(mismatches == 0);
    CHECK(host_calls.load() == replays);
    // The streams work eagerly again.
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &host_calls));
    CHECK_ACL(aclrtSynchronizeStream(side));
    CHECK(host_calls.load() == replays + 1);
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL_CODE(aclmdlRIExecuteAsync(model, origin), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("replays are ordered with the executing stream's other work and run on any stream") {
    Runtime runtime;
    Stream capturing, first, second;
    DeviceArray<float> value(1);
    PinnedFloats host(1);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    // value *= 2 as a copy to host, a host function and a copy back would be racy; a kernel
    // doubling in place keeps the replay self-contained: value += 1 * value.
    CHECK(launch_capture_axpy(1, capturing, value.get(), value.get(), 1.0f, 1) == 0);
    CHECK_ACL(aclrtLaunchHostFunc(capturing, count_call, &calls));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(capturing, &model));
    host[0] = 1.0f;
    // Eager copy, replay, replay, eager copy back: the stream's order holds around the replays.
    CHECK_ACL(aclrtMemcpyAsync(value.get(), sizeof(float), host.get(), sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE, first));
    CHECK_ACL(aclmdlRIExecuteAsync(model, first));
    CHECK_ACL(aclmdlRIExecuteAsync(model, first));
    CHECK_ACL(aclrtMemcpyAsync(host.get(), sizeof(float), value.get(), sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST, first));
    CHECK_ACL(aclrtSynchronizeStream(first));
    CHECK(host[0] == 4.0f);
    CHECK_ACL(aclmdlRIExecuteAsync(model, second));
    CHECK_ACL(aclrtSynchronizeStream(second));
    CHECK(value.read()[0] == 8.0f);
    CHECK(calls.load() == 3);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("replays of one model on two streams are serialized") {
    Runtime runtime;
    Stream capturing, a, b;
    Overlap overlap;
    REQUIRE_ACL(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < 4; ++i) CHECK_ACL(aclrtLaunchHostFunc(capturing, enter_and_leave, &overlap));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(capturing, &model));
    const int rounds = 50;
    for (int i = 0; i < rounds; ++i) {
        CHECK_ACL(aclmdlRIExecuteAsync(model, a));
        CHECK_ACL(aclmdlRIExecuteAsync(model, b));
    }
    CHECK_ACL(aclrtSynchronizeStream(a));
    CHECK_ACL(aclrtSynchronizeStream(b));
    CHECK(overlap.calls.load() == 4 * 2 * rounds);
    CHECK(overlap.most.load() == 1);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("destroying a model waits for the replays already enqueued") {
    Runtime runtime;
    Stream capturing, executing;
    Latch latch;
    std::atomic<int> after{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtLaunchHostFunc(capturing, wait_for_latch, &latch));
    CHECK_ACL(aclrtLaunchHostFunc(capturing, count_call, &after));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(capturing, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    {
        std::unique_lock lock(latch.mutex);
        REQUIRE(latch.cv.wait_for(lock, kBound, [&] { return latch.entered == 1; }));
    }
    std::atomic<int> seen_at_return{-1};
    std::thread destroyer([&] {
        CHECK_ACL(aclmdlRIDestroy(model));
        seen_at_return = after.load();
    });
    {
        std::lock_guard lock(latch.mutex);
        latch.open = true;
    }
    latch.cv.notify_all();
    destroyer.join();
    // Both replays had finished when the destroy returned.
    CHECK(seen_at_return.load() == 2);
    CHECK_ACL(aclrtSynchronizeStream(executing));
}

TEST_CASE("a failing node fails the executing stream's operation with its code; later replays run") {
    Runtime runtime;
    Stream capturing, executing;
    DeviceArray<uint32_t> trigger(1);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(launch_capture_fault_if(capturing, trigger.get()) == 0);
    CHECK_ACL(aclrtLaunchHostFunc(capturing, count_call, &calls));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(capturing, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL(aclrtSynchronizeStream(executing));
    CHECK(calls.load() == 1);
    const uint32_t one = 1;
    CHECK_ACL(aclrtMemcpy(trigger.get(), sizeof one, &one, sizeof one, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL_CODE(aclrtSynchronizeStream(executing), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(recent_error().find("capture_fault_if") != std::string::npos);
    // The node after the failure skipped its work.
    CHECK(calls.load() == 1);
    trigger.clear();
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL(aclrtSynchronizeStream(executing));
    CHECK(calls.load() == 2);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("a replay's copy or memset into memory freed after the capture fails the replay, naming the address") {
    Runtime runtime;
    Stream capturing, executing;
    PinnedFloats host(kCount);
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtMemsetAsync(device, kBytes, 0, kBytes, capturing));
    CHECK_ACL(aclrtMemcpyAsync(device, kBytes, host.get(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, capturing));
    CHECK_ACL(aclrtMemcpy2dAsync(host.get(), 64, device, 64, 32, kBytes / 64, ACL_MEMCPY_DEVICE_TO_HOST, capturing));
    CHECK_ACL(aclrtLaunchHostFunc(capturing, count_call, &calls));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(capturing, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL(aclrtSynchronizeStream(executing));
    CHECK(calls.load() == 1);

    REQUIRE_ACL(aclrtFree(device));
    CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
    CHECK_ACL_CODE(aclrtSynchronizeStream(executing), ACL_ERROR_RT_DEVICE_MEM_ERROR);
    CHECK(recent_error().find("devPtr") != std::string::npos);
    CHECK(recent_error().find("no longer allocated") != std::string::npos);
    CHECK(calls.load() == 1);  // nothing after the failed task ran

    // Memory allocated again over the same range is another allocation: the replay still fails.
    void* again = nullptr;
    REQUIRE_ACL(aclrtMalloc(&again, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (again == device) {
        CHECK_ACL(aclmdlRIExecuteAsync(model, executing));
        CHECK_ACL_CODE(aclrtSynchronizeStream(executing), ACL_ERROR_RT_DEVICE_MEM_ERROR);
        CHECK(recent_error().find("freed and allocated again") != std::string::npos);
        CHECK(calls.load() == 1);
    }
    CHECK_ACL(aclrtFree(again));
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("a capture left open across a device reset or aclFinalize ends with it") {
    std::vector<float> host(kCount, 1.0f);
    for (const bool finalize : {false, true}) {
        CAPTURE(finalize);
        {
            Initialized init;
            REQUIRE_ACL(aclrtSetDevice(0));
            aclrtStream stream = nullptr;
            REQUIRE_ACL(aclrtCreateStream(&stream));
            REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
            void* device = nullptr;
            REQUIRE_ACL(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
            // GLOBAL mode forbids synchronous copies while the capture runs.
            CHECK_ACL_CODE(aclrtMemcpy(device, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
                           ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
            if (!finalize) {
                CHECK_ACL(aclrtResetDeviceForce(0));
                REQUIRE_ACL(aclrtSetDevice(0));
                REQUIRE_ACL(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
                CHECK_ACL(aclrtMemcpy(device, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
                CHECK_ACL(aclrtFree(device));
                CHECK_ACL(aclrtResetDevice(0));
            }
        }  // aclFinalize
        // A new runtime: nothing of the old capture is running.
        Runtime runtime;
        void* device = nullptr;
        REQUIRE_ACL(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMemcpy(device, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_ACL(aclrtFree(device));
    }
}

TEST_CASE("capture errors: streams, ends, nesting") {
    Runtime runtime;
    Stream stream, other;
    aclmdlRI model = nullptr;
    CHECK_ACL_CODE(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("default stream") != std::string::npos);
    CHECK_ACL_CODE(aclmdlRICaptureBegin(stream, static_cast<aclmdlRICaptureMode>(7)), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("mode") != std::string::npos);
    CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRICaptureGetInfo(stream, nullptr, &model), ACL_ERROR_INVALID_PARAM);

    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL_CODE(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI capturing_model = nullptr;
    CHECK(status_of(stream, &capturing_model) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK_ACL_CODE(aclmdlRIExecuteAsync(capturing_model, other), ACL_ERROR_RT_MODEL_CAPTURED);
    CHECK_ACL_CODE(aclmdlRIDestroy(capturing_model), ACL_ERROR_RT_MODEL_CAPTURED);
    CHECK_ACL_CODE(aclrtDestroyStream(stream), ACL_ERROR_RT_STREAM_CAPTURED);
    // Ending a capture in GLOBAL mode belongs to the thread that began it.
    const aclrtContext context = runtime.context();
    std::thread([&] {
        CHECK_ACL(aclrtSetCurrentContext(context));
        aclmdlRI ended = nullptr;
        CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, &ended), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    }).join();
    CHECK_ACL(aclmdlRICaptureEnd(stream, &model));
    CHECK(model == capturing_model);
    // An empty capture replays as a no-op.
    CHECK_ACL(aclmdlRIExecuteAsync(model, other));
    CHECK_ACL(aclrtSynchronizeStream(other));
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("capture errors: synchronizing a capturing stream or its device invalidates or refuses") {
    Runtime runtime;
    Stream stream;
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtLaunchHostFunc(stream, count_call, &calls));
    CHECK_ACL_CODE(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
    CHECK(status_of(stream) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_STREAM_CAPTURED);
    CHECK(recent_error().find("invalidated") != std::string::npos);
    CHECK(status_of(stream) == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    CHECK_ACL_CODE(aclrtLaunchHostFunc(stream, count_call, &calls), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    aclmdlRI model = nullptr;
    CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    CHECK(recent_error().find("synchronize") != std::string::npos);
    CHECK(status_of(stream) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    // The stream runs its work again; nothing captured ran.
    CHECK_ACL(aclrtLaunchHostFunc(stream, count_call, &calls));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(calls.load() == 1);
    // Querying invalidates too.
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclrtStreamStatus stream_status;
    CHECK_ACL_CODE(aclrtStreamQuery(stream, &stream_status), ACL_ERROR_RT_STREAM_CAPTURED);
    CHECK(status_of(stream) == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, &model), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
}

TEST_CASE("capture errors: a stream that joined and did not join back fails the end") {
    Runtime runtime;
    Stream origin, side;
    Event forked(ACL_EVENT_SYNC), joined(ACL_EVENT_SYNC);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    CHECK_ACL(aclrtStreamWaitEvent(side, forked));
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    aclmdlRI model = nullptr;
    // Only the origin ends its capture.
    CHECK_ACL_CODE(aclmdlRICaptureEnd(side, &model), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    CHECK_ACL_CODE(aclmdlRICaptureEnd(origin, &model), ACL_ERROR_RT_STREAM_UNJOINED);
    CHECK(recent_error().find("did not join back") != std::string::npos);
    // As CANN's end does when its validity check fails (context_aclgraph.cc, StreamEndCapture ->
    // ClearCaptureModel -> Stream::ExitCapture -> CaptureModel::ExitCaptureNotify, which resets
    // the capture status of every stream of the capture), the streams leave the capture: NONE, and
    // no model. INVALIDATED is what a capture reads while it still runs after a fault.
    aclmdlRI found = &model;
    CHECK(status_of(origin, &found) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK(found == nullptr);
    found = &model;
    CHECK(status_of(side, &found) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK(found == nullptr);
    CHECK_ACL_CODE(aclmdlRICaptureEnd(origin, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    // Both streams are usable: they run work eagerly, synchronize, and capture again.
    CHECK_ACL(aclrtSynchronizeStream(side));
    CHECK(calls.load() == 0);
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    CHECK_ACL(aclrtLaunchHostFunc(origin, count_call, &calls));
    CHECK_ACL(aclrtSynchronizeStream(side));
    CHECK_ACL(aclrtSynchronizeStream(origin));
    CHECK(calls.load() == 2);
    REQUIRE_ACL(aclmdlRICaptureBegin(side, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(status_of(side) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK(status_of(origin) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    REQUIRE_ACL(aclmdlRICaptureEnd(side, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, origin));
    CHECK_ACL(aclrtSynchronizeStream(origin));
    CHECK(calls.load() == 3);
    CHECK_ACL(aclmdlRIDestroy(model));
    calls = 0;

    // Joined back, but with work after the join: unjoined again.
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    CHECK_ACL(aclrtStreamWaitEvent(side, forked));
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    CHECK_ACL(aclrtRecordEvent(joined, side));
    CHECK_ACL(aclrtStreamWaitEvent(origin, joined));
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    CHECK_ACL_CODE(aclmdlRICaptureEnd(origin, &model), ACL_ERROR_RT_STREAM_UNJOINED);

    // A stream joined by waiting, with nothing on it, needs no join.
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    CHECK_ACL(aclrtStreamWaitEvent(side, forked));
    CHECK_ACL(aclrtLaunchHostFunc(origin, count_call, &calls));
    CHECK_ACL(aclmdlRICaptureEnd(origin, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, origin));
    CHECK_ACL(aclrtSynchronizeStream(origin));
    CHECK(calls.load() == 1);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("the default stream, named NULL, joins a capture by waiting and leaves it at the end") {
    Runtime runtime;
    Stream origin;
    Event forked(ACL_EVENT_SYNC), joined(ACL_EVENT_SYNC);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    CHECK_ACL(aclrtStreamWaitEvent(nullptr, forked));
    CHECK(status_of(nullptr) == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    CHECK_ACL(aclrtLaunchHostFunc(nullptr, count_call, &calls));
    CHECK_ACL(aclrtRecordEvent(joined, nullptr));
    CHECK_ACL(aclrtStreamWaitEvent(origin, joined));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(origin, &model));
    CHECK(status_of(nullptr) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    CHECK(calls.load() == 0);
    CHECK_ACL(aclmdlRIExecuteAsync(model, origin));
    CHECK_ACL(aclrtSynchronizeStream(origin));
    CHECK(calls.load() == 1);
    // The default stream runs its work again.
    CHECK_ACL(aclrtLaunchHostFunc(nullptr, count_call, &calls));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(calls.load() == 2);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("capture modes: synchronous copies and memsets during a capture") {
    Runtime runtime;
    Stream stream;
    DeviceArray<float> device(kCount);
    std::vector<float> host(kCount, 1.0f);
    aclmdlRI model = nullptr;
    auto copy = [&] { return aclrtMemcpy(device.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE); };
    auto set = [&] { return aclrtMemset(device.get(), kBytes, 0, kBytes); };
    auto copy_2d = [&] {
        return aclrtMemcpy2d(device.get(), 16, host.data(), 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE);
    };
    auto pageable_async = [&] {
        return aclrtMemcpyAsync(device.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    };
    const aclrtContext context = runtime.context();
    auto other_thread = [&](aclmdlRICaptureMode mode) {
        aclError rc = ACL_SUCCESS;
        std::thread([&] {
            CHECK_ACL(aclrtSetCurrentContext(context));
            aclmdlRICaptureMode previous = mode;
            CHECK_ACL(aclmdlRICaptureThreadExchangeMode(&previous));
            rc = copy();
        }).join();
        return rc;
    };

    SUBCASE("GLOBAL forbids them on every thread not switched to RELAXED") {
        REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK_ACL_CODE(copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK(recent_error().find("aclmdlRICaptureThreadExchangeMode") != std::string::npos);
        CHECK_ACL_CODE(set(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK_ACL_CODE(copy_2d(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK_ACL_CODE(pageable_async(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK(other_thread(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK(other_thread(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) == ACL_SUCCESS);
        CHECK(other_thread(ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS);
        aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
        CHECK_ACL(aclmdlRICaptureThreadExchangeMode(&mode));
        CHECK(mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
        CHECK_ACL(copy());
        CHECK_ACL(set());
        CHECK_ACL(aclmdlRICaptureThreadExchangeMode(&mode));
        CHECK(mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
        CHECK_ACL_CODE(copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    }
    SUBCASE("THREAD_LOCAL forbids them on the capturing thread only") {
        REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        CHECK_ACL_CODE(copy(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK_ACL_CODE(set(), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
        CHECK(other_thread(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS);
    }
    SUBCASE("RELAXED allows them; a pageable asynchronous copy is recorded") {
        REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
        CHECK_ACL(copy());
        CHECK(other_thread(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS);
        CHECK_ACL(set());
        CHECK_ACL(pageable_async());
        CHECK(device.read()[0] == 0.0f);  // not run: recorded
    }
    CHECK_ACL(aclmdlRICaptureEnd(stream, &model));
    CHECK_ACL(copy());  // no capture: allowed again
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL_CODE(aclmdlRICaptureThreadExchangeMode(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("captures on several threads at once, in each mode") {
    Runtime runtime;
    const aclrtContext context = runtime.context();
    for (aclmdlRICaptureMode mode : {ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
                                     ACL_MODEL_RI_CAPTURE_MODE_RELAXED}) {
        CAPTURE(mode);
        constexpr int threads = 4;
        constexpr int replays = 25;
        std::vector<std::unique_ptr<DeviceArray<float>>> inputs, outputs;
        for (int t = 0; t < threads; ++t) {
            inputs.push_back(std::make_unique<DeviceArray<float>>(std::vector<float>(kCount, static_cast<float>(t + 1))));
            outputs.push_back(std::make_unique<DeviceArray<float>>(kCount));
        }
        std::atomic<int> failures{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                if (aclrtSetCurrentContext(context) != ACL_SUCCESS) return void(++failures);
                aclrtStream stream = nullptr, side = nullptr;
                aclrtEvent fork = nullptr, join = nullptr;
                aclmdlRI model = nullptr;
                bool ok = aclrtCreateStream(&stream) == ACL_SUCCESS && aclrtCreateStream(&side) == ACL_SUCCESS &&
                          aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC) == ACL_SUCCESS &&
                          aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC) == ACL_SUCCESS;
                ok = ok && aclmdlRICaptureBegin(stream, mode) == ACL_SUCCESS;
                ok = ok && aclrtMemsetAsync(outputs[t]->get(), kBytes, 0, kBytes, stream) == ACL_SUCCESS;
                ok = ok && aclrtRecordEvent(fork, stream) == ACL_SUCCESS;
                ok = ok && aclrtStreamWaitEvent(side, fork) == ACL_SUCCESS;
                ok = ok && launch_capture_axpy(2, side, inputs[t]->get(), outputs[t]->get(), 2.0f, kCount) == 0;
                ok = ok && aclrtRecordEvent(join, side) == ACL_SUCCESS;
                ok = ok && aclrtStreamWaitEvent(stream, join) == ACL_SUCCESS;
                ok = ok && launch_capture_axpy(2, stream, inputs[t]->get(), outputs[t]->get(), 1.0f, kCount) == 0;
                ok = ok && aclmdlRICaptureEnd(stream, &model) == ACL_SUCCESS;
                for (int r = 0; ok && r < replays; ++r) {
                    ok = aclmdlRIExecuteAsync(model, stream) == ACL_SUCCESS && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
                }
                ok = ok && aclmdlRIDestroy(model) == ACL_SUCCESS;
                if (!ok) ++failures;
                aclrtDestroyEvent(fork);
                aclrtDestroyEvent(join);
                aclrtDestroyStream(side);
                aclrtDestroyStream(stream);
            });
        }
        for (std::thread& worker : workers) worker.join();
        CHECK(failures.load() == 0);
        for (int t = 0; t < threads; ++t)
            for (float value : outputs[t]->read()) CHECK(value == 3.0f * static_cast<float>(t + 1));
    }
}

TEST_CASE("events recorded outside a capture are waited for when the replay gets there; external records") {
    Runtime runtime;
    Stream graph_stream, external, reader;
    Event in(ACL_EVENT_EXTERNAL), out(ACL_EVENT_SYNC);
    DeviceArray<float> source(std::vector<float>(kCount, 5.0f)), middle(kCount), target(kCount);
    Latch latch;

    // The replay waits for a record made after it was enqueued, resets the event, copies, and
    // records another event for waiters outside the graph.
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtStreamWaitEvent(graph_stream, in));
    CHECK_ACL(aclrtResetEvent(in, graph_stream));
    CHECK_ACL(aclrtMemcpyAsync(middle.get(), kBytes, source.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, graph_stream));
    CHECK_ACL(aclrtRecordEventWithFlag(out, graph_stream, ACL_EVENT_RECORD_EXTERNAL));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));

    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        CHECK_ACL(aclrtLaunchHostFunc(external, wait_for_latch, &latch));
        // Before the execute, behind the latch: the replay waits for it, as an eager wait made
        // then would (a record made after the execute is not waited for, see below).
        CHECK_ACL(aclrtRecordEvent(in, external));
        CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
        // A stream waiting for `out` after the execute waits for the replay.
        CHECK_ACL(aclrtStreamWaitEvent(reader, out));
        CHECK_ACL(aclrtMemcpyAsync(target.get(), kBytes, middle.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, reader));
        // The replay waits behind the latch.
        CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(graph_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        CHECK(middle.read()[0] == 0.0f);
        {
            std::lock_guard lock(latch.mutex);
            latch.open = true;
        }
        latch.cv.notify_all();
        CHECK_ACL(aclrtSynchronizeStream(reader));
        CHECK(target.read()[0] == 5.0f);
        CHECK_ACL(aclrtSynchronizeStream(graph_stream));
        CHECK_ACL(aclrtSynchronizeStream(external));
        target.clear();
        middle.clear();
        std::lock_guard lock(latch.mutex);
        latch.open = false;
    }
    CHECK_ACL(aclmdlRIDestroy(model));

    // Waiting for and recording the same event outside the graph would wait for itself.
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtStreamWaitEventWithFlag(graph_stream, out, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_ACL(aclrtRecordEventWithFlag(out, graph_stream, ACL_EVENT_RECORD_EXTERNAL));
    CHECK_ACL_CODE(aclmdlRICaptureEnd(graph_stream, &model), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtRecordEventWithFlag(out, graph_stream, 9), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtStreamWaitEventWithFlag(graph_stream, out, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("task groups are updated in the order of the updating stream") {
    Runtime runtime;
    Stream stream, updating;
    DeviceArray<float> x(std::vector<float>(kCount, 1.0f)), y(kCount);
    aclrtTaskGrp group = nullptr;
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtMemsetAsync(y.get(), kBytes, 0, kBytes, stream));
    CHECK_ACL_CODE(aclmdlRICaptureTaskGrpEnd(stream, &group), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_ACL(aclmdlRICaptureTaskGrpBegin(stream));
    CHECK_ACL_CODE(aclmdlRICaptureTaskGrpBegin(stream), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK(launch_capture_axpy(1, stream, x.get(), y.get(), 2.0f, kCount) == 0);
    CHECK_ACL(aclmdlRICaptureTaskGrpEnd(stream, &group));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(stream, &model));
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 2.0f);

    CHECK_ACL_CODE(aclmdlRICaptureTaskUpdateEnd(updating), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_ACL(aclmdlRICaptureTaskUpdateBegin(updating, group));
    CHECK(launch_capture_axpy(1, updating, x.get(), y.get(), 5.0f, kCount) == 0);
    CHECK_ACL(aclmdlRICaptureTaskUpdateEnd(updating));
    CHECK_ACL(aclrtSynchronizeStream(updating));
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 5.0f);

    // An update must match the group's tasks.
    CHECK_ACL(aclmdlRICaptureTaskUpdateBegin(updating, group));
    CHECK_ACL(aclrtMemsetAsync(y.get(), kBytes, 0, kBytes, updating));
    CHECK_ACL_CODE(aclmdlRICaptureTaskUpdateEnd(updating), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 5.0f);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("conditional tasks choose their branch from the condition when the replay reaches them") {
    Runtime runtime;
    Stream stream, branch_stream;
    DeviceArray<float> x(std::vector<float>(kCount, 1.0f)), y(kCount);
    DeviceArray<uint64_t> chosen(1);
    aclmdlRICondTaskType type = ACL_MODEL_RI_COND_TYPE_SWITCH;
    uint32_t branches = 3;
    SUBCASE("switch") {}
    SUBCASE("if / else") {
        type = ACL_MODEL_RI_COND_TYPE_IF;
        branches = 2;
    }
    CAPTURE(type);
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRICaptureStatus status;
    aclmdlRI parent = nullptr;
    CHECK_ACL(aclmdlRICaptureGetInfo(stream, &status, &parent));
    aclmdlRICondHandle cond = nullptr;
    CHECK_ACL(aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
    uint64_t* value = nullptr;
    CHECK_ACL(aclmdlRICondHandleGetCondPtr(cond, &value));
    // The condition is written by the graph itself, after the default was assigned.
    CHECK_ACL(aclrtMemcpyAsync(value, sizeof(uint64_t), chosen.get(), sizeof(uint64_t), ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    std::vector<aclmdlRI> models(branches, nullptr);
    aclmdlRICondTaskParams params{cond, type, branches, models.data()};
    CHECK_ACL(aclmdlRIAddCondTask(params, stream, 0));
    for (uint32_t b = 0; b < branches; ++b) {
        CHECK_ACL(aclmdlRICaptureToModelRIBegin(branch_stream, models[b], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK_ACL(aclrtMemsetAsync(y.get(), kBytes, 0, kBytes, branch_stream));
        CHECK(launch_capture_axpy(1, branch_stream, x.get(), y.get(), static_cast<float>(10 + b), kCount) == 0);
        CHECK_ACL(aclmdlRICaptureEnd(branch_stream, &models[b]));
    }
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(stream, &model));
    CHECK_ACL_CODE(aclmdlRIExecuteAsync(models[0], stream), ACL_ERROR_INVALID_PARAM);  // a branch
    CHECK_ACL_CODE(aclmdlRIDestroy(models[0]), ACL_ERROR_INVALID_PARAM);
    for (uint64_t pick : {0, 1, 2, 1}) {
        if (pick >= branches && type == ACL_MODEL_RI_COND_TYPE_SWITCH) continue;
        CHECK_ACL(aclrtMemcpy(chosen.get(), sizeof pick, &pick, sizeof pick, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
        CHECK_ACL(aclrtSynchronizeStream(stream));
        // IF runs branch 0 when the condition is not 0, else branch 1.
        const uint64_t branch = type == ACL_MODEL_RI_COND_TYPE_IF ? (pick != 0 ? 0 : 1) : pick;
        CHECK(y.read()[0] == static_cast<float>(10 + branch));
    }
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL_CODE(aclmdlRICondHandleGetCondPtr(cond, &value), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_CASE("a while task runs its body until the body clears the condition") {
    Runtime runtime;
    Stream stream, body_stream;
    DeviceArray<float> x(std::vector<float>(1, 1.0f)), y(1);
    DeviceArray<uint64_t> remaining(1), zero(1);
    std::atomic<int> iterations{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    aclmdlRICaptureStatus status;
    aclmdlRI parent = nullptr;
    CHECK_ACL(aclmdlRICaptureGetInfo(stream, &status, &parent));
    aclmdlRICondHandle cond = nullptr;
    CHECK_ACL(aclmdlRICondHandleCreate(parent, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
    uint64_t* value = nullptr;
    CHECK_ACL(aclmdlRICondHandleGetCondPtr(cond, &value));
    aclmdlRI body = nullptr;
    aclmdlRICondTaskParams params{cond, ACL_MODEL_RI_COND_TYPE_WHILE, 1, &body};
    CHECK_ACL(aclmdlRIAddCondTask(params, stream, 0));
    // The body counts, and clears the condition on its first run: the default (1) runs it once.
    CHECK_ACL(aclmdlRICaptureToModelRIBegin(body_stream, body, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK_ACL(aclrtLaunchHostFunc(body_stream, count_call, &iterations));
    CHECK_ACL(aclrtMemcpyAsync(value, sizeof(uint64_t), zero.get(), sizeof(uint64_t), ACL_MEMCPY_DEVICE_TO_DEVICE, body_stream));
    CHECK_ACL(aclmdlRICaptureEnd(body_stream, &body));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(stream, &model));
    for (int round = 1; round <= 3; ++round) {
        CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
        CHECK_ACL(aclrtSynchronizeStream(stream));
        CHECK(iterations.load() == round);
    }
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("conditional task errors") {
    Runtime runtime;
    Stream stream, plain;
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclmdlRICaptureStatus status;
    aclmdlRI parent = nullptr;
    CHECK_ACL(aclmdlRICaptureGetInfo(stream, &status, &parent));
    aclmdlRICondHandle cond = nullptr;
    CHECK_ACL_CODE(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(5), &cond), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond));
    aclmdlRI models[2] = {};
    CHECK_ACL_CODE(aclmdlRIAddCondTask({cond, ACL_MODEL_RI_COND_TYPE_WHILE, 2, models}, stream, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRIAddCondTask({cond, ACL_MODEL_RI_COND_TYPE_IF, 1, models}, plain, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    CHECK_ACL_CODE(aclmdlRIAddCondTask({cond, ACL_MODEL_RI_COND_TYPE_IF, 1, nullptr}, stream, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclmdlRIAddCondTask({cond, ACL_MODEL_RI_COND_TYPE_IF, 1, models}, stream, 0));
    // The branch was never captured: the parent's capture cannot end.
    aclmdlRI model = nullptr;
    CHECK_ACL_CODE(aclmdlRICaptureEnd(stream, &model), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
    CHECK(status_of(stream) == ACL_MODEL_RI_CAPTURE_STATUS_NONE);
}

TEST_CASE("aclmdlRIExecute runs a captured model and waits; aclmdlRIDebugJsonPrint writes its tasks") {
    Runtime runtime;
    Stream origin, side;
    Event forked(ACL_EVENT_SYNC), joined(ACL_EVENT_SYNC);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtLaunchHostFunc(origin, count_call, &calls));
    CHECK_ACL(aclrtRecordEvent(forked, origin));
    CHECK_ACL(aclrtStreamWaitEvent(side, forked));
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    CHECK_ACL(aclrtRecordEvent(joined, side));
    CHECK_ACL(aclrtStreamWaitEvent(origin, joined));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(origin, &model));
    CHECK_ACL(aclmdlRIExecute(model, -1));
    CHECK(calls.load() == 2);
    CHECK_ACL_CODE(aclmdlRIExecute(model, 0), ACL_ERROR_INVALID_PARAM);

    TemporaryDirectory directory;
    const std::string path = directory.path() + "/model.json";
    CHECK_ACL(aclmdlRIDebugJsonPrint(model, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
    std::stringstream text;
    text << std::ifstream(path).rdbuf();
    CHECK(text.str().find("\"traceEvents\"") != std::string::npos);
    CHECK(text.str().find("HOST_FUNC") != std::string::npos);
    CHECK(text.str().find("\"after\":[0]") != std::string::npos);
    CHECK_ACL_CODE(aclmdlRIDebugJsonPrint(model, "/nonexistent/dir/model.json", 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRIDebugJsonPrint(model, path.c_str(), 7), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("aclrtActiveStream and aclrtSwitchStream need streams bound to a model being built") {
    Runtime runtime;
    Stream plain;
    Stream head(0, ACL_STREAM_PERSISTENT), branch(0, ACL_STREAM_PERSISTENT), skipped(0, ACL_STREAM_PERSISTENT);
    DeviceArray<int32_t> left(std::vector<int32_t>{2}), right(std::vector<int32_t>{2});
    std::atomic<int> calls{0};
    CHECK_ACL_CODE(aclrtActiveStream(head, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ACL_CODE(aclrtSwitchStream(left.get(), ACL_RT_EQUAL, right.get(), ACL_RT_SWITCH_INT32, head, nullptr, plain),
                   ACL_ERROR_RT_STREAM_MODEL);
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRIBuildBegin(&model, 0));
    REQUIRE_ACL(aclmdlRIBindStream(model, head, ACL_MODEL_STREAM_FLAG_HEAD));
    REQUIRE_ACL(aclmdlRIBindStream(model, branch, ACL_MODEL_STREAM_FLAG_DEFAULT));
    REQUIRE_ACL(aclmdlRIBindStream(model, skipped, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_ACL_CODE(aclrtActiveStream(plain, head), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ACL_CODE(aclrtSwitchStream(left.get(), static_cast<aclrtCondition>(9), right.get(), ACL_RT_SWITCH_INT32,
                                     branch, nullptr, head),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSwitchStream(left.get(), ACL_RT_EQUAL, right.get(), ACL_RT_SWITCH_INT32, branch, skipped, head),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclrtSwitchStream(left.get(), ACL_RT_EQUAL, right.get(), ACL_RT_SWITCH_INT32, branch, nullptr, head));
    CHECK_ACL(aclrtSwitchStream(left.get(), ACL_RT_LESS, right.get(), ACL_RT_SWITCH_INT32, skipped, nullptr, head));
    CHECK_ACL(aclrtLaunchHostFunc(branch, count_call, &calls));
    CHECK_ACL(aclrtActiveStream(skipped, branch));
    CHECK_ACL(aclrtLaunchHostFunc(skipped, count_call, &calls));
    REQUIRE_ACL(aclmdlRIBuildEnd(model, nullptr));
    // head switches to branch (2 == 2), not to skipped (2 < 2 fails); branch activates skipped.
    CHECK_ACL(aclmdlRIExecuteAsync(model, plain));
    CHECK_ACL(aclrtSynchronizeStream(plain));
    CHECK(calls.load() == 2);
    for (aclrtStream bound : {static_cast<aclrtStream>(head), static_cast<aclrtStream>(branch), static_cast<aclrtStream>(skipped)})
        CHECK_ACL(aclmdlRIUnbindStream(model, bound));
    CHECK_ACL(aclmdlRIDestroy(model));
}

namespace {

// Runs `call` on a thread of its own and returns its code. If it has not returned within kBound
// the test fails and the process ends: the thread cannot be stopped, and the test must fail, not
// hang.
template <class Call>
aclError returns_in_time(const char* what, Call call) {
    auto done = std::make_shared<Flag>();
    auto code = std::make_shared<std::atomic<aclError>>(ACL_SUCCESS);
    aclrtContext context = nullptr;
    (void)aclrtGetCurrentContext(&context);  // the thread calls with the caller's context
    std::thread([done, code, call, context] {
        if (context) (void)aclrtSetCurrentContext(context);
        *code = call();
        done->set();
    }).detach();
    if (!done->wait()) {
        FAIL_CHECK(std::string(what) << " did not return within " << kBound.count() << " s: the test process ends here");
        std::fflush(stdout);
        std::_Exit(1);
    }
    return code->load();
}

// A host function that blocks until its flag is set (bounded far beyond kBound, so that a
// regression is caught by returns_in_time first).
void wait_for_flag(void* flag) { static_cast<Flag*>(flag)->wait(4 * kBound); }

// Appends the number of latch callbacks that had left when it ran.
struct LeftLog {
    Latch* latch = nullptr;
    std::mutex mutex;
    std::vector<int> seen;
};
void log_left(void* data) {
    auto* log = static_cast<LeftLog*>(data);
    int left;
    {
        std::lock_guard lock(log->latch->mutex);
        left = log->latch->left;
    }
    std::lock_guard lock(log->mutex);
    log->seen.push_back(left);
}

// Serves report callbacks (aclrtProcessReport) until destroyed.
class ReportThread {
public:
    ReportThread()
        : thread_([this] {
              while (!stop_.load()) {
                  if (aclrtProcessReport(10) == ACL_ERROR_THREAD_NOT_SUBSCRIBE)
                      std::this_thread::sleep_for(std::chrono::milliseconds(1));
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

struct Ordered {
    std::mutex mutex;
    std::vector<char> order;
};
struct OrderedStep {
    Ordered* log;
    char name;
};
void append_ordered(void* data) {
    auto* step = static_cast<OrderedStep*>(data);
    std::lock_guard lock(step->log->mutex);
    step->log->order.push_back(step->name);
}

}  // namespace

TEST_CASE("blocking and non-blocking callbacks are captured and keep what follows them waiting") {
    Runtime runtime;
    Stream stream, executing;
    ReportThread reporter;
    REQUIRE_ACL(aclrtSubscribeReport(reporter.id(), stream));
    Latch latch;
    LeftLog log;
    log.latch = &latch;
    std::atomic<int> quick{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtLaunchCallback(wait_for_latch, &latch, ACL_CALLBACK_BLOCK, stream));
    CHECK_ACL(aclrtLaunchHostFunc(stream, log_left, &log));
    CHECK_ACL(aclrtLaunchCallback(count_call, &quick, ACL_CALLBACK_NO_BLOCK, stream));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(stream, &model));
    {
        std::lock_guard lock(latch.mutex);
        CHECK(latch.entered == 0);  // captured, not run
    }

    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, executing));
        {
            std::unique_lock lock(latch.mutex);
            REQUIRE(latch.cv.wait_for(lock, kBound, [&] { return latch.entered == round; }));
        }
        // The blocking callback runs on the subscribed thread and holds the replay.
        CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(executing, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        {
            std::lock_guard lock(log.mutex);
            CHECK(log.seen.size() == static_cast<size_t>(round - 1));
        }
        {
            std::lock_guard lock(latch.mutex);
            latch.open = true;
        }
        latch.cv.notify_all();
        CHECK_ACL(aclrtSynchronizeStream(executing));
        CHECK(eventually([&] { return quick.load() == round; }));
        std::lock_guard lock(latch.mutex);
        latch.open = false;
    }
    // The host function after the blocking callback ran only once the callback had returned.
    CHECK(log.seen == std::vector<int>{1, 2, 3});
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL(aclrtUnSubscribeReport(reporter.id(), stream));
}

TEST_CASE("notify record and wait, value write and wait are captured and replayed") {
    Runtime runtime;
    Stream graph_stream, side, other, recorder;
    Event fork(ACL_EVENT_SYNC), join(ACL_EVENT_SYNC);
    aclrtNotify notify = nullptr;
    REQUIRE_ACL(aclrtCreateNotify(&notify, 0));
    void* value = nullptr;
    REQUIRE_ACL(aclrtMalloc(&value, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemset(value, 8, 0, 8));
    Ordered log;
    OrderedStep a{&log, 'A'}, b{&log, 'B'}, c{&log, 'C'};
    std::atomic<int> after_notify{0};

    // The graph waits for a notify recorded outside it, then the side stream waits for a value the
    // origin writes after step A, so B follows A; C runs once the side has joined back. The value
    // is cleared again at the end, and the graph records a second notify for an eager waiter.
    aclrtNotify done = nullptr;
    REQUIRE_ACL(aclrtCreateNotify(&done, 0));
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtWaitAndResetNotify(notify, graph_stream, 0));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, count_call, &after_notify));
    CHECK_ACL(aclrtRecordEvent(fork, graph_stream));
    CHECK_ACL(aclrtStreamWaitEvent(side, fork));
    CHECK_ACL(aclrtValueWait(value, 1, ACL_STREAM_WAIT_VALUE_EQ, side));
    CHECK_ACL(aclrtLaunchHostFunc(side, append_ordered, &b));
    CHECK_ACL(aclrtRecordEvent(join, side));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, append_ordered, &a));
    CHECK_ACL(aclrtValueWrite(value, 1, 0, graph_stream));
    CHECK_ACL(aclrtStreamWaitEvent(graph_stream, join));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, append_ordered, &c));
    CHECK_ACL(aclrtValueWrite(value, 0, 0, graph_stream));
    CHECK_ACL(aclrtRecordNotify(done, graph_stream));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));
    CHECK(log.order.empty());

    for (int round = 1; round <= 3; ++round) {
        CAPTURE(round);
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, graph_stream));
        CHECK_ACL(aclrtWaitAndResetNotify(done, other, 0));  // released by the replay's record
        // Nothing records the notify yet: the replay waits at its first task.
        CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(graph_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        CHECK(after_notify.load() == round - 1);
        CHECK_ACL(aclrtRecordNotify(notify, recorder));
        CHECK_ACL(aclrtSynchronizeStream(graph_stream));
        CHECK_ACL(aclrtSynchronizeStream(other));
        CHECK(after_notify.load() == round);
    }
    CHECK(log.order == std::vector<char>{'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'});

    // A replayed notify wait with a timeout fails the replay when nothing records the notify.
    CHECK_ACL(aclmdlRIDestroy(model));
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ACL(aclrtWaitAndResetNotify(notify, graph_stream, 1));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, count_call, &after_notify));
    REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));
    REQUIRE_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK_ACL_CODE(aclrtSynchronizeStream(graph_stream), ACL_ERROR_RT_WAIT_TIMEOUT);
    CHECK(after_notify.load() == 3);
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL(aclrtDestroyNotify(notify));
    CHECK_ACL(aclrtDestroyNotify(done));
    CHECK_ACL(aclrtFree(value));
}

TEST_CASE("a replayed external wait binds to the event's record made before the execute, as an eager wait") {
    Runtime runtime;
    Stream graph_stream, external;
    Event in(ACL_EVENT_SYNC);
    std::atomic<int> calls{0};
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtStreamWaitEventWithFlag(graph_stream, in, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, count_call, &calls));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));

    // Never recorded: nothing to wait for (aclrtStreamWaitEvent on such an event is a no-op).
    CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK(returns_in_time("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(graph_stream); }) == ACL_SUCCESS);
    CHECK(calls.load() == 1);

    // Recorded after the execute, behind a closed gate: not waited for either.
    Gate gate;
    REQUIRE_ACL(gate.hold(external));
    CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK_ACL(aclrtRecordEvent(in, external));
    CHECK(returns_in_time("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(graph_stream); }) == ACL_SUCCESS);
    CHECK(calls.load() == 2);

    // Recorded before the execute and not run yet: waited for.
    CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(graph_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK(calls.load() == 2);
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(graph_stream));
    CHECK(calls.load() == 3);
    CHECK_ACL(aclrtSynchronizeStream(external));
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("a device reset, forced or not, or a forced stream destroy ends a replay's pending external wait") {
    // The event is recorded on a second device behind a host function that only the test
    // releases, so that nothing but the reset of the first device can end the replay's wait.
    const ConfigFile config("{\"canopy\": {\"device_count\": 2}}");
    Initialized init(config.path());
    for (const char* ending : {"aclrtResetDevice", "aclrtResetDeviceForce", "aclrtDestroyStreamForce"}) {
        CAPTURE(ending);
        REQUIRE_ACL(aclrtSetDevice(1));
        aclrtStream external = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&external));
        aclrtEvent in = nullptr;
        REQUIRE_ACL(aclrtCreateEventWithFlag(&in, ACL_EVENT_SYNC));
        Flag release;
        REQUIRE_ACL(aclrtLaunchHostFunc(external, wait_for_flag, &release));
        REQUIRE_ACL(aclrtRecordEvent(in, external));

        REQUIRE_ACL(aclrtSetDevice(0));
        aclrtStream graph_stream = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&graph_stream));
        std::atomic<int> calls{0};
        REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        CHECK_ACL(aclrtStreamWaitEventWithFlag(graph_stream, in, 0, ACL_EVENT_WAIT_EXTERNAL));
        CHECK_ACL(aclrtLaunchHostFunc(graph_stream, count_call, &calls));
        aclmdlRI model = nullptr;
        REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, graph_stream));
        CHECK_ACL_CODE(aclrtSynchronizeStreamWithTimeout(graph_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);

        // A thread synchronizing the executing stream is let go with the replay's failure.
        auto synchronized = std::make_shared<std::atomic<aclError>>(ACL_SUCCESS);
        auto returned = std::make_shared<Flag>();
        aclrtContext context = nullptr;
        REQUIRE_ACL(aclrtGetCurrentContext(&context));
        std::thread waiter([graph_stream, synchronized, returned, context] {
            (void)aclrtSetCurrentContext(context);
            *synchronized = aclrtSynchronizeStream(graph_stream);
            returned->set();
        });
        const bool destroy = std::string(ending) == "aclrtDestroyStreamForce";
        if (destroy) {
            CHECK(returns_in_time(ending, [graph_stream] { return aclrtDestroyStreamForce(graph_stream); }) == ACL_SUCCESS);
        } else if (std::string(ending) == "aclrtResetDevice") {
            CHECK(returns_in_time(ending, [] { return aclrtResetDevice(0); }) == ACL_SUCCESS);
        } else {
            CHECK(returns_in_time(ending, [] { return aclrtResetDeviceForce(0); }) == ACL_SUCCESS);
        }
        if (!returned->wait()) {
            FAIL_CHECK("aclrtSynchronizeStream on the executing stream did not return");
            std::_Exit(1);
        }
        waiter.join();
        // The replay failed with the abort (or, had the waiter come late, its context or stream
        // was gone already).
        const aclError code = synchronized->load();
        CHECK((code == ACL_ERROR_RT_STREAM_ABORT || code == ACL_ERROR_RT_CONTEXT_NULL || code == ACL_ERROR_RT_INVALID_HANDLE));
        CHECK(calls.load() == 0);
        // No replay is left pending: destroying the model does not wait (after a forced destroy,
        // before any reset).
        CHECK(returns_in_time("aclmdlRIDestroy", [model] { return aclmdlRIDestroy(model); }) == ACL_SUCCESS);
        if (destroy) CHECK(returns_in_time("aclrtResetDevice", [] { return aclrtResetDevice(0); }) == ACL_SUCCESS);

        release.set();
        REQUIRE_ACL(aclrtSetDevice(1));
        CHECK_ACL(aclrtSynchronizeStream(external));
        CHECK_ACL(aclrtDestroyEvent(in));
        CHECK_ACL(aclrtDestroyStream(external));
        CHECK_ACL(aclrtResetDevice(1));
    }
}

TEST_CASE("a timed event wait is captured: the replay applies the timeout to an event recorded outside it") {
    Runtime runtime;
    Stream graph_stream, side, external;
    Event in(ACL_EVENT_SYNC), fork(ACL_EVENT_SYNC), join(ACL_EVENT_SYNC);
    std::atomic<int> calls{0};
    // Outside a capture Canopy's event waits have no timer, and refuse one.
    CHECK_ACL_CODE(aclrtStreamWaitEventWithFlag(graph_stream, in, 1, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    // Waits for events the capture records are edges of the graph: accepted with their timeout.
    REQUIRE_ACL(aclmdlRICaptureBegin(graph_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtRecordEvent(fork, graph_stream));
    CHECK_ACL(aclrtStreamWaitEventWithFlag(side, fork, 5, ACL_EVENT_WAIT_DEFAULT));
    CHECK_ACL(aclrtLaunchHostFunc(side, count_call, &calls));
    CHECK_ACL(aclrtRecordEvent(join, side));
    CHECK_ACL(aclrtStreamWaitEventWithFlag(graph_stream, join, 5, ACL_EVENT_WAIT_DEFAULT));
    // A wait for an event recorded outside the capture, with a timeout of one second.
    CHECK_ACL(aclrtStreamWaitEventWithFlag(graph_stream, in, 1, ACL_EVENT_WAIT_DEFAULT));
    CHECK_ACL(aclrtLaunchHostFunc(graph_stream, count_call, &calls));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(graph_stream, &model));

    // Recorded in time.
    CHECK_ACL(aclrtRecordEvent(in, external));
    CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK_ACL(aclrtSynchronizeStream(graph_stream));
    CHECK(calls.load() == 2);

    // Recorded behind a gate held past the timeout: the replay fails with the wait's timeout.
    Gate gate;
    REQUIRE_ACL(gate.hold(external));
    CHECK_ACL(aclrtRecordEvent(in, external));
    CHECK_ACL(aclmdlRIExecuteAsync(model, graph_stream));
    CHECK(returns_in_time("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(graph_stream); }) ==
          ACL_ERROR_RT_WAIT_TIMEOUT);
    CHECK(calls.load() == 3);  // the side stream's task ran; the task after the wait did not
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(external));
    CHECK_ACL(aclmdlRIDestroy(model));
}

TEST_CASE("destroying a stream in the middle of a task group update drops the update") {
    Runtime runtime;
    Stream stream;
    DeviceArray<float> x(std::vector<float>(kCount, 1.0f)), y(kCount);
    aclrtTaskGrp group = nullptr;
    REQUIRE_ACL(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ACL(aclrtMemsetAsync(y.get(), kBytes, 0, kBytes, stream));
    CHECK_ACL(aclmdlRICaptureTaskGrpBegin(stream));
    CHECK(launch_capture_axpy(1, stream, x.get(), y.get(), 2.0f, kCount) == 0);
    CHECK_ACL(aclmdlRICaptureTaskGrpEnd(stream, &group));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(stream, &model));

    // An update begun and never ended, on a stream then destroyed (its kernel's arguments are
    // held by the update: ASan's leak check sees them if the update is lost).
    for (bool forced : {false, true}) {
        aclrtStream updating = nullptr;
        REQUIRE_ACL(aclrtCreateStream(&updating));
        CHECK_ACL(aclmdlRICaptureTaskUpdateBegin(updating, group));
        CHECK(launch_capture_axpy(1, updating, x.get(), y.get(), 7.0f, kCount) == 0);
        CHECK_ACL(forced ? aclrtDestroyStreamForce(updating) : aclrtDestroyStream(updating));
    }
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 2.0f);  // the dropped updates never applied

    // The group can be updated again; one stream at a time, as CANN's task groups.
    Stream first, second;
    CHECK_ACL(aclmdlRICaptureTaskUpdateBegin(first, group));
    CHECK_ACL_CODE(aclmdlRICaptureTaskUpdateBegin(second, group), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK(launch_capture_axpy(1, first, x.get(), y.get(), 5.0f, kCount) == 0);
    CHECK_ACL(aclmdlRICaptureTaskUpdateEnd(first));
    CHECK_ACL(aclrtSynchronizeStream(first));
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 5.0f);
    CHECK_ACL(aclmdlRICaptureTaskUpdateBegin(second, group));
    CHECK(launch_capture_axpy(1, second, x.get(), y.get(), 3.0f, kCount) == 0);
    CHECK_ACL(aclmdlRICaptureTaskUpdateEnd(second));
    CHECK_ACL(aclrtSynchronizeStream(second));
    CHECK_ACL(aclmdlRIExecuteAsync(model, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(y.read()[0] == 3.0f);
    CHECK_ACL(aclmdlRIDestroy(model));
}
