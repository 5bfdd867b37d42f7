// A seeded, multi-threaded fuzzer of API call sequences (issue 12). Threads pick calls at random
// over a shared pool of streams, events and device buffers that other threads destroy and replace
// meanwhile, so calls race with the destruction of what they use; host functions call back into
// the runtime; device memory is freed under queued copies; sizes are extreme; handles are garbage.
// The run is cut into epochs; halfway through each, the main thread resets the device by force or
// finalizes the runtime under the other threads' calls, which from then on may also be told that
// the runtime, the context or the handle is gone. Threads also capture copies and replay them after
// freeing the memory they write. Every call must return a code allowed for it,
// and every host function whose launch succeeded must have run exactly once.
//
//   api_fuzzer [--seed N] [--threads T] [--calls C] [--epochs E]
//
// CI runs a short sequence in every build (ctest api_fuzzer); a long run is
// `api_fuzzer --seed $RANDOM --threads 8 --calls 2000000 --epochs 200`. The same seed replays the same choices
// per thread (the interleaving is the machine's).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

namespace {

constexpr std::size_t kPoolSize = 4;
constexpr std::size_t kBufferBytes = 64 * 1024;

std::atomic<long> launched{0};
std::atomic<long> ran{0};
std::atomic<long> violations{0};
std::atomic<long> calls_done{0};
// Set while the main thread resets the device or finalizes the runtime under the other threads.
std::atomic<bool> ending{false};
std::mutex report_mutex;

void violation(const std::string& what, aclError code) {
    if (violations.fetch_add(1) < 20) {
        std::lock_guard lock(report_mutex);
        std::fprintf(stderr, "api_fuzzer: %s returned %d: %s\n", what.c_str(), code, aclGetRecentErrMsg());
    }
}

void expect(aclError code, std::initializer_list<aclError> allowed, const char* what) {
    for (aclError ok : allowed)
        if (code == ok) return;
    // The runtime, the device's contexts, the handle or the device's memory (which a reset
    // releases) may be gone under a reset or a finalize.
    if (ending.load() && (code == ACL_ERROR_UNINITIALIZE || code == ACL_ERROR_RT_CONTEXT_NULL ||
                          code == ACL_ERROR_RT_INVALID_HANDLE || code == ACL_ERROR_RT_MEMORY_FREE))
        return;
    violation(what, code);
}

// What a handle that another thread may have destroyed can answer.
constexpr aclError kGone = ACL_ERROR_RT_INVALID_HANDLE;

struct Pool {
    std::mutex mutex;
    aclrtStream streams[kPoolSize] = {};
    aclrtEvent events[kPoolSize] = {};
};

template <class T>
T pick(Pool& pool, T (&slots)[kPoolSize], std::size_t index) {
    std::lock_guard lock(pool.mutex);
    return slots[index % kPoolSize];
}

template <class T>
T swap_in(Pool& pool, T (&slots)[kPoolSize], std::size_t index, T fresh) {
    std::lock_guard lock(pool.mutex);
    T old = slots[index % kPoolSize];
    slots[index % kPoolSize] = fresh;
    return old;
}

// A host function; some call back into the runtime on their own stream, which must be refused.
struct HostCall {
    aclrtContext context;
    aclrtStream stream;
    int callback;
};
void host_function(void* argument) {
    auto* call = static_cast<HostCall*>(argument);
    aclrtSetCurrentContext(call->context);
    switch (call->callback) {
        // kGone: the stream was force-destroyed; its work runs on without a handle.
        case 1: expect(aclrtSynchronizeStream(call->stream), {ACL_ERROR_RT_NO_PERMISSION, kGone}, "host function: aclrtSynchronizeStream(own)"); break;
        case 2: expect(aclrtDestroyStream(call->stream), {ACL_ERROR_RT_NO_PERMISSION, kGone}, "host function: aclrtDestroyStream(own)"); break;
        case 3: expect(aclrtSynchronizeDevice(), {ACL_ERROR_RT_NO_PERMISSION, ACL_ERROR_RT_STREAM_CAPTURED, ACL_ERROR_RT_DEVICE_MEM_ERROR}, "host function: aclrtSynchronizeDevice"); break;
        default: break;
    }
    ran.fetch_add(1, std::memory_order_relaxed);
    delete call;
}

void launch(aclrtContext context, aclrtStream stream, int callback) {
    auto* call = new HostCall{context, stream, callback};
    const aclError code = aclrtLaunchHostFunc(stream, host_function, call);
    expect(code, {ACL_SUCCESS, kGone}, "aclrtLaunchHostFunc");
    if (code == ACL_SUCCESS) launched.fetch_add(1, std::memory_order_relaxed);
    else delete call;
}

// A copy captured on a stream of the thread's own, replayed there after its destination was freed
// (sometimes) and with a reset or finalize possibly in between: the replay must fail with a code,
// never write freed memory.
void capture_and_replay(void* host, std::uint64_t r) {
    aclrtStream stream = nullptr;
    expect(aclrtCreateStream(&stream), {ACL_SUCCESS}, "aclrtCreateStream (capture)");
    if (!stream) return;
    void* device = nullptr;
    expect(aclrtMalloc(&device, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST), {ACL_SUCCESS}, "aclrtMalloc (capture)");
    aclmdlRI model = nullptr;
    if (device && aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS) {
        expect(aclrtMemcpyAsync(device, kBufferBytes, host, kBufferBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
               {ACL_SUCCESS, kGone}, "aclrtMemcpyAsync (captured)");
        expect(aclmdlRICaptureEnd(stream, &model), {ACL_SUCCESS, kGone}, "aclmdlRICaptureEnd");
    }
    const bool freed = device && (r >> 20) % 2 == 0;
    if (freed) expect(aclrtFree(device), {ACL_SUCCESS}, "aclrtFree (captured)");
    if (model) {
        expect(aclmdlRIExecuteAsync(model, stream), {ACL_SUCCESS, kGone}, "aclmdlRIExecuteAsync");
        // The replay fails; its error may have gone to another thread's aclrtSynchronizeDevice first.
        if (freed) expect(aclrtSynchronizeStream(stream), {ACL_ERROR_RT_DEVICE_MEM_ERROR, ACL_SUCCESS, kGone}, "replay of freed memory");
        else expect(aclrtSynchronizeStream(stream), {ACL_SUCCESS, kGone}, "replay");
        expect(aclmdlRIDestroy(model), {ACL_SUCCESS, kGone}, "aclmdlRIDestroy");
    }
    if (device && !freed) expect(aclrtFree(device), {ACL_SUCCESS}, "aclrtFree (replayed)");
    expect(aclrtDestroyStream(stream), {ACL_SUCCESS, kGone}, "aclrtDestroyStream (capture)");
}

void fuzz(Pool& pool, aclrtContext context, std::uint64_t seed, long calls) {
    expect(aclrtSetCurrentContext(context), {ACL_SUCCESS}, "aclrtSetCurrentContext");
    std::mt19937_64 random(seed);
    void* host = nullptr;
    expect(aclrtMallocHost(&host, kBufferBytes), {ACL_SUCCESS}, "aclrtMallocHost");
    for (long call = 0; call < calls; ++call, calls_done.fetch_add(1, std::memory_order_relaxed)) {
        const std::uint64_t r = random();
        const std::size_t slot = (r >> 8) % kPoolSize;
        switch (r % 16) {
            case 0: {  // replace a stream: destroys it under the other threads' calls
                aclrtStream fresh = nullptr;
                expect(aclrtCreateStream(&fresh), {ACL_SUCCESS}, "aclrtCreateStream");
                if (!fresh) break;  // the runtime is ending
                aclrtStream old = swap_in(pool, pool.streams, slot, fresh);
                expect((r >> 16) % 4 == 0 ? aclrtDestroyStreamForce(old) : aclrtDestroyStream(old), {ACL_SUCCESS, kGone},
                       "aclrtDestroyStream");
                break;
            }
            case 1: {  // replace an event
                aclrtEvent fresh = nullptr;
                expect(aclrtCreateEvent(&fresh), {ACL_SUCCESS}, "aclrtCreateEvent");
                if (!fresh) break;
                expect(aclrtDestroyEvent(swap_in(pool, pool.events, slot, fresh)), {ACL_SUCCESS, kGone}, "aclrtDestroyEvent");
                break;
            }
            case 2:
            case 3: launch(context, pick(pool, pool.streams, slot), static_cast<int>((r >> 16) % 8)); break;
            case 4:
                expect(aclrtRecordEvent(pick(pool, pool.events, slot), pick(pool, pool.streams, slot + 1)),
                       {ACL_SUCCESS, kGone}, "aclrtRecordEvent");
                break;
            case 5:
                expect(aclrtStreamWaitEvent(pick(pool, pool.streams, slot), pick(pool, pool.events, slot + 2)),
                       {ACL_SUCCESS, kGone}, "aclrtStreamWaitEvent");
                break;
            case 6: expect(aclrtSynchronizeStream(pick(pool, pool.streams, slot)), {ACL_SUCCESS, kGone}, "aclrtSynchronizeStream"); break;
            case 7: expect(aclrtSynchronizeEvent(pick(pool, pool.events, slot)), {ACL_SUCCESS, kGone}, "aclrtSynchronizeEvent"); break;
            case 8: {
                aclrtStreamStatus status;
                expect(aclrtStreamQuery(pick(pool, pool.streams, slot), &status), {ACL_SUCCESS, kGone}, "aclrtStreamQuery");
                aclrtEventRecordedStatus recorded;
                expect(aclrtQueryEventStatus(pick(pool, pool.events, slot), &recorded), {ACL_SUCCESS, kGone},
                       "aclrtQueryEventStatus");
                break;
            }
            case 9: {  // device memory freed while a copy into it is still queued behind a host function
                void* device = nullptr;
                expect(aclrtMalloc(&device, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST), {ACL_SUCCESS}, "aclrtMalloc");
                if (!device) break;
                aclrtStream stream = pick(pool, pool.streams, slot);
                launch(context, stream, 0);
                expect(aclrtMemcpyAsync(device, kBufferBytes, host, kBufferBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
                       {ACL_SUCCESS, kGone}, "aclrtMemcpyAsync");
                expect(aclrtFree(device), {ACL_SUCCESS}, "aclrtFree under a queued copy");
                break;
            }
            case 10: {  // extreme sizes
                void* device = nullptr;
                const aclError code = aclrtMalloc(&device, std::numeric_limits<size_t>::max() - (r & 0xff),
                                                  ACL_MEM_MALLOC_HUGE_FIRST);
                if (code == ACL_SUCCESS) violation("aclrtMalloc(SIZE_MAX)", code);
                char small[64];
                // Two rows or more: the pitch wraps the extent around.
                if (aclrtMemcpy2d(small, std::numeric_limits<size_t>::max() - 7, host, 64, 64, 2 + (r >> 60),
                                  ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS)
                    violation("aclrtMemcpy2d with a wrapping pitch", ACL_SUCCESS);
                if (aclrtMemcpy(small, sizeof small, host, kBufferBytes, ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS)
                    violation("aclrtMemcpy larger than destMax", ACL_SUCCESS);
                break;
            }
            case 11: {  // garbage handles
                auto garbage = reinterpret_cast<aclrtStream>(static_cast<std::uintptr_t>(r | 1));
                expect(aclrtSynchronizeStream(garbage), {kGone}, "aclrtSynchronizeStream(garbage)");
                expect(aclrtRecordEvent(reinterpret_cast<aclrtEvent>(garbage), nullptr), {kGone}, "aclrtRecordEvent(garbage)");
                expect(aclrtDestroyEvent(reinterpret_cast<aclrtEvent>(garbage)), {kGone}, "aclrtDestroyEvent(garbage)");
                break;
            }
            // Refused while another thread's stream captures, or the failure of another thread's
            // replay of freed memory (capture_and_replay).
            case 12:
                expect(aclrtSynchronizeDevice(), {ACL_SUCCESS, ACL_ERROR_RT_STREAM_CAPTURED, ACL_ERROR_RT_DEVICE_MEM_ERROR},
                       "aclrtSynchronizeDevice");
                break;
            case 13: capture_and_replay(host, r); break;
            default: launch(context, pick(pool, pool.streams, slot), 0); break;
        }
    }
    expect(aclrtFreeHost(host), {ACL_SUCCESS}, "aclrtFreeHost");
}

long option(int argc, char** argv, const char* name, long fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0) return std::strtol(argv[i + 1], nullptr, 10);
    return fallback;
}

// One epoch: a fresh runtime and pool, the threads' calls, and halfway through a forced reset of
// the device (odd epochs) or aclFinalize (even ones) under them.
void epoch(long index, long seed, long threads, long calls) {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        violation("starting the runtime", aclGetRecentErrMsg() ? 1 : 0);
        return;
    }
    aclrtContext context = nullptr;
    aclrtGetCurrentContext(&context);
    Pool pool;
    for (std::size_t i = 0; i < kPoolSize; ++i) {
        expect(aclrtCreateStream(&pool.streams[i]), {ACL_SUCCESS}, "aclrtCreateStream");
        expect(aclrtCreateEvent(&pool.events[i]), {ACL_SUCCESS}, "aclrtCreateEvent");
    }
    const long start = calls_done.load();
    std::vector<std::thread> workers;
    for (long t = 0; t < threads; ++t)
        workers.emplace_back(fuzz, std::ref(pool), context,
                             static_cast<std::uint64_t>(seed) * 1000003u + static_cast<std::uint64_t>(index * threads + t), calls);
    while (calls_done.load() - start < threads * calls / 2) std::this_thread::yield();
    ending = true;
    const bool reset = index % 2 == 1;
    // The reset and the finalize wait for everything, the work of force-destroyed streams included.
    expect(reset ? aclrtResetDeviceForce(0) : aclFinalize(), {ACL_SUCCESS}, reset ? "aclrtResetDeviceForce" : "aclFinalize");
    for (auto& worker : workers) worker.join();
    // What the threads made after the reset, on a device they set again implicitly, goes with the runtime.
    if (reset) expect(aclFinalize(), {ACL_SUCCESS}, "aclFinalize after the reset");
    ending = false;
}

}  // namespace

int main(int argc, char** argv) {
    const long seed = option(argc, argv, "--seed", 1);
    const long threads = option(argc, argv, "--threads", 4);
    const long calls = option(argc, argv, "--calls", 20000);
    const long epochs = std::max(1L, option(argc, argv, "--epochs", 4));
    for (long index = 0; index < epochs; ++index) epoch(index, seed, threads, calls / epochs);
    if (ran.load() != launched.load()) {
        std::fprintf(stderr, "api_fuzzer: %ld host functions launched, %ld ran\n", launched.load(), ran.load());
        ++violations;
    }
    std::printf("api_fuzzer: seed %ld, %ld threads x %ld calls in %ld epochs, %ld host functions run, %ld violations\n",
                seed, threads, calls, epochs, ran.load(), violations.load());
    return violations.load() == 0 ? 0 : 1;
}
