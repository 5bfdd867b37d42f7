// Allocation failure, injected: this program replaces the global operator new, and each test sweeps
// an API call over its allocations, SQLite-style. Attempt n makes allocation n of the calling thread
// fail (once, or from there on), for n = 0, 1, ... until the call makes no more allocations than
// that. Every attempt must succeed or return ACL_ERROR_BAD_ALLOC / ACL_ERROR_RT_MEMORY_ALLOCATION
// with a message; a failed call must have had no effect (no handle, no device reference, no
// enqueued work, no bytes reserved), and the work enqueued before it must all still run. Device
// memory itself runs out through the configured device memory and through resource limits.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "kernel_shim.h"
#include "support.h"

extern "C" __global__ __aicore__ void count_block_runs(GM_ADDR counter);

using namespace canopy_test;

// ---- The injector

namespace {
enum class Mode { once, from_then_on };

// Per thread, so that the runtime's workers allocate as usual while the calling thread fails.
thread_local long allocations_before_failure = -1;  // -1: disarmed
thread_local bool keeps_failing = false;
thread_local bool failure_injected = false;

// Memory exhausted for every thread, the runtime's workers included, until lifted.
std::atomic<bool> exhausted_everywhere{false};

bool inject_failure() noexcept {
    if (exhausted_everywhere.load(std::memory_order_relaxed)) return true;
    if (allocations_before_failure < 0) return false;
    if (allocations_before_failure > 0) {
        --allocations_before_failure;
        return false;
    }
    failure_injected = true;
    if (!keeps_failing) allocations_before_failure = -1;
    return true;
}

void arm(long allocations, Mode mode) {
    failure_injected = false;
    keeps_failing = mode == Mode::from_then_on;
    allocations_before_failure = allocations;
}

// Whether the armed failure happened.
bool disarm() {
    allocations_before_failure = -1;
    return failure_injected;
}

void* allocate(std::size_t size, std::size_t alignment) noexcept {
    if (inject_failure()) return nullptr;
    if (size == 0) size = 1;
    if (alignment <= alignof(std::max_align_t)) return std::malloc(size);
    void* pointer = nullptr;
    return posix_memalign(&pointer, alignment, size) == 0 ? pointer : nullptr;
}

void* allocate_or_throw(std::size_t size, std::size_t alignment) {
    void* pointer = allocate(size, alignment);
    if (!pointer) throw std::bad_alloc();
    return pointer;
}
}  // namespace

// The replacements pair malloc with free by design; GCC cannot tell once it has inlined them.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) { return allocate_or_throw(size, 0); }
void* operator new[](std::size_t size) { return allocate_or_throw(size, 0); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, 0); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, 0); }
void* operator new(std::size_t size, std::align_val_t alignment) {
    return allocate_or_throw(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
    return allocate_or_throw(size, static_cast<std::size_t>(alignment));
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return allocate(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    return allocate(size, static_cast<std::size_t>(alignment));
}
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete[](void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::size_t, std::align_val_t) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::align_val_t, const std::nothrow_t&) noexcept { std::free(pointer); }
void operator delete[](void* pointer, std::align_val_t, const std::nothrow_t&) noexcept { std::free(pointer); }

#if defined(__SANITIZE_ADDRESS__)
// oneTBB's continue_input constructor makes its two function bodies with plain `new` in its
// initializer list: when the second fails, the first leaks (16 bytes). That is oneTBB's header,
// reached here only because node construction is made to fail; every other leak still reports.
extern "C" const char* __lsan_default_suppressions() { return "leak:oneapi/tbb/detail/_flow_graph_node_impl.h"; }
#endif

// ---- Sweeps

namespace {
// No call here comes near this many allocations: reaching it means the sweep does not end.
constexpr long kMaxAllocations = 20'000;

bool is_allocation_error(aclError rc) { return rc == ACL_ERROR_BAD_ALLOC || rc == ACL_ERROR_RT_MEMORY_ALLOCATION; }

// One attempt of a sweep: the call under test runs with the thread's allocation number n failing.
class Trial {
public:
    Trial(long allocation, Mode mode) : allocation_(allocation), mode_(mode) {}

    // Runs the call under test armed; returns its code, checked to be success or an allocation error.
    template <class Call>
    aclError run(Call&& call) {
        arm(allocation_, mode_);
        const aclError rc = call();
        injected_ = disarm() || injected_;
        if (!injected_) {
            CHECK_MESSAGE(rc == ACL_SUCCESS, "returned " << rc << " with no allocation failing: " << recent_error());
        } else if (rc != ACL_SUCCESS) {
            CHECK_MESSAGE(is_allocation_error(rc), "returned " << rc << ": " << recent_error());
            CHECK(aclGetRecentErrMsg() != nullptr);
        }
        return rc;
    }
    bool injected() const { return injected_; }
    long allocation() const { return allocation_; }

private:
    long allocation_;
    Mode mode_;
    bool injected_ = false;
};

// Calls attempt(trial) for allocations 0, 1, ... until an attempt ran its call with nothing
// failing; returns how many attempts had a failure injected.
template <class Attempt>
long sweep(Mode mode, Attempt attempt) {
    for (long allocation = 0;; ++allocation) {
        REQUIRE(allocation < kMaxAllocations);
        Trial trial(allocation, mode);
        attempt(trial);
        if (!trial.injected()) return allocation;
    }
}

// Both kinds of failure: a transient one, and memory that stays exhausted (then the error paths
// themselves cannot allocate).
// `allocates`: the call is known to allocate, so the sweep must have injected failures.
template <class Attempt>
void sweep_both(Attempt attempt, bool allocates = true) {
    for (Mode mode : {Mode::once, Mode::from_then_on}) {
        const std::string failing = mode == Mode::once ? "once" : "from then on";
        CAPTURE(failing);
        const long failures = sweep(mode, attempt);
        if (allocates) CHECK(failures > 0);
    }
}

// The streams the runtime announced (aclrtRegStreamStateCallback) and has not announced destroyed.
// A stream destroyed without having been announced is a handle a failed call left in the table.
// The callback runs inside calls under test, so it records without allocating.
class StreamCensus {
public:
    StreamCensus() { REQUIRE_ACL(aclrtRegStreamStateCallback("fault_injection_census", &StreamCensus::on_state, this)); }
    ~StreamCensus() { aclrtRegStreamStateCallback("fault_injection_census", nullptr, nullptr); }

    int live() const {
        int count = 0;
        for (const auto& slot : slots_) count += slot.load() != nullptr;
        return count;
    }
    int unannounced() const { return unannounced_.load(); }

private:
    static void on_state(aclrtStream stream, aclrtStreamState state, void* argument) {
        auto& self = *static_cast<StreamCensus*>(argument);
        if (state == ACL_RT_STREAM_STATE_CREATE_POST) {
            for (auto& slot : self.slots_) {
                void* empty = nullptr;
                if (slot.compare_exchange_strong(empty, stream)) return;
            }
            self.overflowed_.store(true);
            return;
        }
        for (auto& slot : self.slots_) {
            void* expected = stream;
            if (slot.compare_exchange_strong(expected, nullptr)) return;
        }
        self.unannounced_.fetch_add(1);
    }

    std::atomic<void*> slots_[256] = {};
    std::atomic<int> unannounced_{0};
    std::atomic<bool> overflowed_{false};
};

const std::string kConfig = R"({"canopy": {"device_count": 2, "workers_per_device": 2, "device_memory_mb": 64}})";

// aclInit with two devices, device 0 set, streams counted; at the end the device reset must have
// announced the destruction of exactly the streams that were announced.
class FaultRuntime {
public:
    FaultRuntime() : runtime_(std::make_unique<Runtime>(file_.path())) {}
    ~FaultRuntime() {
        runtime_.reset();
        CHECK(census_.unannounced() == 0);
        CHECK(census_.live() == 0);
    }
    const StreamCensus& census() const { return census_; }

private:
    ConfigFile file_{kConfig};
    StreamCensus census_;
    std::unique_ptr<Runtime> runtime_;
};

// Work enqueued before the call under test: it must all run whatever the call returns.
class Backlog {
public:
    void add(aclrtStream stream, int count) {
        for (int i = 0; i < count; ++i) REQUIRE_ACL(launch_increment(stream, ran_));
        launched_ += count;
    }
    bool all_ran() const { return ran_.load() == launched_; }
    void check_ran(aclrtStream stream) {
        REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
        CHECK(ran_.load() == launched_);
    }

private:
    std::atomic<int> ran_{0};
    int launched_ = 0;
};

// Holds a stream behind a record on another stream that a gate holds, so that a thread waiting
// for it finds nothing to run and goes to sleep. The gate opens once the waiting thread sleeps (or
// the call under test has returned: it failed before it slept).
class HeldUntilAsleep {
public:
    explicit HeldUntilAsleep(aclrtStream stream) : waiter_(static_cast<pid_t>(syscall(SYS_gettid))) {
        REQUIRE_ACL(gate_.hold(producer_));
        REQUIRE_ACL(aclrtRecordEvent(event_, producer_));
        REQUIRE_ACL(aclrtStreamWaitEvent(stream, event_));
        opener_ = std::thread([this] {
            while (!returned_.load() && !waiter_asleep()) std::this_thread::yield();
            gate_.open();
        });
    }
    ~HeldUntilAsleep() { call_returned(); }
    HeldUntilAsleep(const HeldUntilAsleep&) = delete;
    HeldUntilAsleep& operator=(const HeldUntilAsleep&) = delete;

    void call_returned() {
        returned_ = true;
        if (opener_.joinable()) opener_.join();
    }

private:
    // Blocked in the kernel: state S in /proc/self/task/<tid>/stat, after the parenthesized name.
    bool waiter_asleep() const {
        std::ifstream stat("/proc/self/task/" + std::to_string(waiter_) + "/stat");
        std::string line;
        std::getline(stat, line);
        const std::size_t name_end = line.rfind(')');
        return name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] == 'S';
    }

    Stream producer_;
    Gate gate_;
    Event event_;
    pid_t waiter_;
    std::atomic<bool> returned_{false};
    std::thread opener_;
};

// Runs `body` with the stream idle, then again with the stream held behind a gate and work queued
// behind that, so that the call under test links onto a node still pending; the queued work must
// run afterwards in both cases.
template <class Body>
void idle_and_held(aclrtStream stream, Body body) {
    for (bool held : {false, true}) {
        CAPTURE(held);
        Backlog backlog;
        Gate gate;
        if (held) REQUIRE_ACL(gate.hold(stream));
        backlog.add(stream, 3);
        body();
        gate.open();
        backlog.check_ran(stream);
    }
}

// How many aclrtResetDevice calls device `id` takes before it is no longer set (the references it had).
int drain_device_references(int32_t id) {
    int references = 0;
    while (aclrtResetDevice(id) == ACL_SUCCESS) {
        ++references;
        REQUIRE(references < 100);
    }
    return references;
}

// Counts runs of a host function or callback.
void count_run(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); }
}  // namespace

TEST_CASE("the injector fails the chosen allocation of the calling thread, and only that thread's") {
    arm(2, Mode::once);
    auto first = std::make_unique<int>(1);
    auto second = std::make_unique<int>(2);
    CHECK_THROWS_AS(std::make_unique<int>(3), std::bad_alloc);
    auto fourth = std::make_unique<int>(4);
    CHECK(disarm());

    std::atomic<bool> armed{false};
    bool other_thread_failed = false;
    std::thread other([&] {
        while (!armed.load()) std::this_thread::yield();
        try {
            std::vector<int> values(1000);
        } catch (const std::bad_alloc&) {
            other_thread_failed = true;
        }
    });
    arm(0, Mode::from_then_on);
    armed = true;
    other.join();
    CHECK_THROWS_AS(std::make_unique<int>(5), std::bad_alloc);
    CHECK(::operator new(8, std::nothrow) == nullptr);
    CHECK(::operator new(64, std::align_val_t{64}, std::nothrow) == nullptr);
    CHECK(disarm());
    CHECK_FALSE(other_thread_failed);
    void* aligned = ::operator new(64, std::align_val_t{256});
    CHECK(reinterpret_cast<std::uintptr_t>(aligned) % 256 == 0);
    ::operator delete(aligned, std::align_val_t{256});
}

TEST_CASE("creating and destroying streams and events fails cleanly") {
    FaultRuntime rt;
    const int streams_before = rt.census().live();

    auto sweep_creation = [&](auto create) {
        sweep_both([&](Trial& trial) {
            aclrtStream stream = nullptr;
            if (trial.run([&] { return create(&stream); }) != ACL_SUCCESS) {
                CHECK(stream == nullptr);
                CHECK(rt.census().live() == streams_before);
                return;
            }
            std::atomic<int> ran{0};
            CHECK_ACL(launch_increment(stream, ran));
            CHECK_ACL(aclrtSynchronizeStream(stream));
            CHECK(ran == 1);
            CHECK_ACL(aclrtDestroyStream(stream));
            CHECK(rt.census().live() == streams_before);
        });
    };
    SUBCASE("aclrtCreateStream") { sweep_creation([](aclrtStream* stream) { return aclrtCreateStream(stream); }); }
    SUBCASE("aclrtCreateStreamWithConfig at another priority") {
        sweep_creation([](aclrtStream* stream) { return aclrtCreateStreamWithConfig(stream, 3, ACL_STREAM_FAST_LAUNCH); });
    }
    SUBCASE("aclrtDestroyStream with work queued, on a device that has never had a thread sleep") {
        aclrtContext primary = nullptr;
        REQUIRE_ACL(aclrtGetCurrentContext(&primary));
        sweep_both([&](Trial& trial) {
            REQUIRE_ACL(aclrtSetDevice(1));
            struct Unset {
                aclrtContext primary;
                ~Unset() {
                    CHECK_ACL(aclrtResetDevice(1));
                    CHECK_ACL(aclrtSetCurrentContext(primary));
                }
            } unset{primary};
            aclrtStream stream = nullptr;
            REQUIRE_ACL(aclrtCreateStream(&stream));
            Backlog backlog;
            HeldUntilAsleep held(stream);  // destroying waits for the stream: asleep, it must not allocate
            backlog.add(stream, 3);
            aclrtStreamStatus status;
            const aclError rc = trial.run([&] { return aclrtDestroyStream(stream); });
            held.call_returned();
            if (rc == ACL_SUCCESS) {
                CHECK(backlog.all_ran());
                CHECK_ACL_CODE(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
                return;
            }
            // Still a live, working stream.
            CHECK_ACL(aclrtStreamQuery(stream, &status));
            backlog.add(stream, 1);
            backlog.check_ran(stream);
            CHECK_ACL(aclrtDestroyStream(stream));
        });
    }
    SUBCASE("aclrtDestroyStreamForce with work held") {
        sweep_both([&](Trial& trial) {
            aclrtStream stream = nullptr;
            REQUIRE_ACL(aclrtCreateStream(&stream));
            Backlog backlog;
            Gate gate;
            REQUIRE_ACL(gate.hold(stream));
            backlog.add(stream, 3);
            // A forced destroy returns at once, the held work still queued; it runs once opened.
            const aclError rc = trial.run([&] { return aclrtDestroyStreamForce(stream); });
            gate.open();
            if (rc == ACL_SUCCESS) {
                CHECK(eventually([&] { return backlog.all_ran(); }));
                aclrtStreamStatus status;
                CHECK_ACL_CODE(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
                return;
            }
            backlog.check_ran(stream);
            CHECK_ACL(aclrtDestroyStream(stream));
        });
    }
    SUBCASE("aclrtCreateEvent and aclrtCreateEventWithFlag") {
        for (bool with_flag : {false, true}) {
            CAPTURE(with_flag);
            sweep_both([&](Trial& trial) {
                aclrtEvent event = nullptr;
                const aclError rc = trial.run([&] {
                    return with_flag ? aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC) : aclrtCreateEvent(&event);
                });
                if (rc != ACL_SUCCESS) {
                    CHECK(event == nullptr);
                    return;
                }
                CHECK_ACL(aclrtRecordEvent(event, nullptr));
                CHECK_ACL(aclrtSynchronizeEvent(event));
                CHECK_ACL(aclrtDestroyEvent(event));
            });
        }
    }
    SUBCASE("aclrtDestroyEvent") {
        sweep_both([&](Trial& trial) {
            aclrtEvent event = nullptr;
            REQUIRE_ACL(aclrtCreateEvent(&event));
            REQUIRE_ACL(aclrtRecordEvent(event, nullptr));
            if (trial.run([&] { return aclrtDestroyEvent(event); }) == ACL_SUCCESS) {
                aclrtEventRecordedStatus status;
                CHECK_ACL_CODE(aclrtQueryEventStatus(event, &status), ACL_ERROR_RT_INVALID_HANDLE);
                return;
            }
            CHECK_ACL(aclrtSynchronizeEvent(event));
            CHECK_ACL(aclrtDestroyEvent(event));
        }, false);
    }
}

namespace {
// Sweeps an enqueueing call on a warm stream (its device's node pool has free nodes, so enqueueing
// may allocate nothing) and on a stream of device 1, set for the attempt (the call must build its
// node), each idle and held behind a gate with work queued (the node links onto one still
// pending). body(trial, stream, drain) makes the armed call, calls drain() (which opens the gate
// and waits for the stream) and checks the call's effect. `needs_node_when_idle` is false for calls
// that complete at once without a node on an idle stream (an event record): they may allocate nothing.
template <class Body>
void sweep_enqueue(aclrtStream warm, aclrtContext primary, Body body, bool needs_node_when_idle = true) {
    for (bool fresh_device : {false, true}) {
        for (bool held : {false, true}) {
            CAPTURE(fresh_device);
            CAPTURE(held);
            sweep_both(
                [&](Trial& trial) {
                    aclrtStream stream = warm;
                    if (fresh_device) {
                        REQUIRE_ACL(aclrtSetDevice(1));
                        REQUIRE_ACL(aclrtCreateStream(&stream));
                    }
                    {
                        Backlog backlog;
                        Gate gate;
                        if (held) REQUIRE_ACL(gate.hold(stream));
                        if (held || !fresh_device) backlog.add(stream, 3);
                        body(trial, stream, [&] {
                            gate.open();
                            REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
                        });
                        gate.open();
                        backlog.check_ran(stream);
                    }
                    if (fresh_device) {
                        CHECK_ACL(aclrtDestroyStream(stream));
                        CHECK_ACL(aclrtResetDevice(1));
                        REQUIRE_ACL(aclrtSetCurrentContext(primary));
                    }
                },
                fresh_device && (held || needs_node_when_idle));
        }
    }
}

// Device memory of the current device, zeroed, for the scope of an attempt.
class Buffer {
public:
    explicit Buffer(std::size_t bytes) : bytes_(bytes) {
        REQUIRE_ACL(aclrtMalloc(&pointer_, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemset(pointer_, bytes, 0, bytes));
    }
    ~Buffer() { CHECK_ACL(aclrtFree(pointer_)); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    void* get() const { return pointer_; }
    // Whether every byte holds `value`.
    bool holds(unsigned char value) const {
        std::vector<unsigned char> host(bytes_);
        REQUIRE_ACL(aclrtMemcpy(host.data(), bytes_, pointer_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST));
        return host == std::vector<unsigned char>(bytes_, value);
    }

private:
    std::size_t bytes_;
    void* pointer_ = nullptr;
};
}  // namespace

TEST_CASE("enqueueing fails cleanly: a refused operation never runs, and earlier work still does") {
    FaultRuntime rt;
    Stream warm;
    aclrtContext primary = nullptr;
    REQUIRE_ACL(aclrtGetCurrentContext(&primary));

    SUBCASE("aclrtLaunchHostFunc") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            std::atomic<int> ran{0};
            const aclError rc = trial.run([&] { return aclrtLaunchHostFunc(stream, &count_run, &ran); });
            drain();
            CHECK(ran == (rc == ACL_SUCCESS ? 1 : 0));
        });
    }
    SUBCASE("aclrtLaunchCallback") {
        std::atomic<bool> stop{false};
        std::thread subscriber([&] {
            while (!stop.load()) {
                if (aclrtProcessReport(10) == ACL_ERROR_THREAD_NOT_SUBSCRIBE) std::this_thread::yield();
            }
        });
        const auto subscriber_id = static_cast<uint64_t>(subscriber.native_handle());
        for (aclrtCallbackBlockType block : {ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK}) {
            CAPTURE(block);
            sweep_enqueue(warm, primary, [&](Trial& trial, aclrtStream stream, auto drain) {
                REQUIRE_ACL(aclrtSubscribeReport(subscriber_id, stream));
                std::atomic<int> ran{0};
                const aclError rc = trial.run([&] { return aclrtLaunchCallback(&count_run, &ran, block, stream); });
                drain();
                // A non-blocking callback may still be waiting for the subscriber.
                CHECK(eventually([&] { return ran == (rc == ACL_SUCCESS ? 1 : 0); }));
                CHECK_ACL(aclrtUnSubscribeReport(subscriber_id, stream));
            });
        }
        stop = true;
        subscriber.join();
    }
    SUBCASE("aclrtMemcpyAsync") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            constexpr std::size_t bytes = 4096;
            Buffer device(bytes);
            void* pinned = nullptr;
            REQUIRE_ACL(aclrtMallocHost(&pinned, bytes));
            std::memset(pinned, 0x3c, bytes);
            const aclError rc = trial.run(
                [&] { return aclrtMemcpyAsync(device.get(), bytes, pinned, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream); });
            drain();
            CHECK(device.holds(rc == ACL_SUCCESS ? 0x3c : 0));
            CHECK_ACL(aclrtFreeHost(pinned));
        });
    }
    SUBCASE("aclrtMemsetAsync") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            constexpr std::size_t bytes = 4096;
            Buffer device(bytes);
            const aclError rc = trial.run([&] { return aclrtMemsetAsync(device.get(), bytes, 0x5a, bytes, stream); });
            drain();
            CHECK(device.holds(rc == ACL_SUCCESS ? 0x5a : 0));
        });
    }
    SUBCASE("aclrtRecordEvent") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            Event event;
            const aclError rc = trial.run([&] { return aclrtRecordEvent(event, stream); });
            drain();
            aclrtEventRecordedStatus status;
            CHECK_ACL(aclrtQueryEventStatus(event, &status));
            CHECK(status == (rc == ACL_SUCCESS ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY));
        }, false);
    }
    SUBCASE("aclrtStreamWaitEvent on a record still pending") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            Stream producer;
            Gate gate;
            Event event;
            REQUIRE_ACL(gate.hold(producer));
            REQUIRE_ACL(aclrtRecordEvent(event, producer));
            std::atomic<int> ran{0};
            const aclError rc = trial.run([&] { return aclrtStreamWaitEvent(stream, event); });
            REQUIRE_ACL(aclrtLaunchHostFunc(stream, &count_run, &ran));
            // An enqueued wait holds the stream until the producer's record has run.
            if (rc == ACL_SUCCESS) CHECK(ran == 0);
            gate.open();
            drain();
            REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(producer, kBoundMs));
            CHECK(ran == 1);
        });
    }
    SUBCASE("a kernel launch") {
        sweep_enqueue(warm, primary, [](Trial& trial, aclrtStream stream, auto drain) {
            constexpr uint32_t blocks = 4;
            Buffer counter(sizeof(uint32_t));
            void* device = counter.get();
            const aclError rc = trial.run(
                [&] { return static_cast<aclError>(ACLRT_LAUNCH_KERNEL(count_block_runs)(blocks, stream, device)); });
            drain();
            uint32_t ran = 0;
            REQUIRE_ACL(aclrtMemcpy(&ran, sizeof ran, device, sizeof ran, ACL_MEMCPY_DEVICE_TO_HOST));
            CHECK(ran == (rc == ACL_SUCCESS ? blocks : 0));
        });
    }
}

TEST_CASE("unsubscribing runs the stream's queued callbacks and host functions, and needs no memory") {
    FaultRuntime rt;
    struct Channel {
        const char* name;
        aclError (*subscribe)(uint64_t, aclrtStream);
        aclError (*unsubscribe)(uint64_t, aclrtStream);
        aclError (*launch)(aclrtStream, std::atomic<int>&);
    };
    const Channel channels[] = {
        {"callbacks", &aclrtSubscribeReport, &aclrtUnSubscribeReport,
         [](aclrtStream stream, std::atomic<int>& ran) {
             return aclrtLaunchCallback(&count_run, &ran, ACL_CALLBACK_NO_BLOCK, stream);
         }},
        {"host functions", &aclrtSubscribeHostFunc, &aclrtUnSubscribeHostFunc,
         [](aclrtStream stream, std::atomic<int>& ran) { return aclrtLaunchHostFunc(stream, &count_run, &ran); }},
    };
    for (const Channel& channel : channels) {
        CAPTURE(channel.name);
        // Subscribed by this thread, which never processes: the work stays queued for it.
        const uint64_t self = this_thread_id();
        sweep_both([&](Trial& trial) {
            Stream stream;
            REQUIRE_ACL(channel.subscribe(self, stream));
            std::atomic<int> ran{0};
            constexpr int queued = 8;
            for (int i = 0; i < queued; ++i) REQUIRE_ACL(channel.launch(stream, ran));
            // Each item is queued for the subscriber once its operation has run. Non-blocking callbacks
            // let the stream drain with all of them queued; a subscribed stream's host function holds
            // the stream until it is processed, so there the first one is queued (once it has run).
            if (channel.subscribe == &aclrtSubscribeReport) REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
            const aclError rc = trial.run([&] { return channel.unsubscribe(self, stream); });
            CHECK_ACL(rc);
            // Whatever was queued ran inside the unsubscribe; what was still behind it runs on the stream.
            REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
            CHECK(ran == queued);
        }, false);
    }
}

TEST_CASE("work that fails while memory stays exhausted on every thread leaves its code, and the process lives") {
    FaultRuntime rt;
    Stream stream;
    std::atomic<int> ran{0};
    // Warm: this thread's node lists exist, and nodes are pooled.
    for (int i = 0; i < 64; ++i) REQUIRE_ACL(launch_increment(stream, ran));
    REQUIRE_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    // Host functions that throw; their failures are recorded by workers that cannot allocate, and
    // the nodes are released by workers whose node lists may not exist yet.
    auto throw_exception = [](void*) { throw std::runtime_error("host function failed on purpose"); };
    constexpr int launched = 16;
    for (int i = 0; i < launched; ++i) REQUIRE_ACL(aclrtLaunchHostFunc(stream, throw_exception, nullptr));
    for (int i = 0; i < launched; ++i) REQUIRE_ACL(launch_increment(stream, ran));
    exhausted_everywhere = true;
    gate.open();
    // Synchronizing needs no memory; the failure is the host function's, described as memory allows.
    const aclError rc = aclrtSynchronizeStreamWithTimeout(stream, kBoundMs);
    exhausted_everywhere = false;
    CHECK(rc == ACL_ERROR_RT_INTERNAL_ERROR);
    CHECK(ran == 64 + launched);
    // The stream goes on once memory is back.
    REQUIRE_ACL(launch_increment(stream, ran));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
    CHECK(ran == 64 + launched + 1);
}

TEST_CASE("aclrtSynchronizeStream fails cleanly and the work it waited for still runs") {
    FaultRuntime rt;
    Stream stream;
    sweep_both([&](Trial& trial) {
        Backlog backlog;
        HeldUntilAsleep held(stream);
        backlog.add(stream, 3);
        const aclError rc = trial.run([&] { return aclrtSynchronizeStream(stream); });
        held.call_returned();
        if (rc == ACL_SUCCESS) CHECK(backlog.all_ran());
        backlog.check_ran(stream);
    }, false);
}

TEST_CASE("device and host allocation fail cleanly: nothing reserved, nothing lost") {
    FaultRuntime rt;
    Stream stream;
    size_t free_before = 0, total = 0;
    REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
    auto device_free = [] {
        size_t free = 0, total = 0;
        CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
        return free;
    };

    SUBCASE("aclrtMalloc") {
        sweep_both([&](Trial& trial) {
            void* pointer = nullptr;
            if (trial.run([&] { return aclrtMalloc(&pointer, 4096, ACL_MEM_MALLOC_HUGE_FIRST); }) != ACL_SUCCESS) {
                CHECK(pointer == nullptr);
                CHECK(device_free() == free_before);
                return;
            }
            CHECK(device_free() < free_before);
            CHECK_ACL(aclrtMemset(pointer, 4096, 7, 4096));
            CHECK_ACL(aclrtFree(pointer));
            CHECK(device_free() == free_before);
        });
    }
    SUBCASE("aclrtMallocHost") {
        sweep_both([&](Trial& trial) {
            void* pointer = nullptr;
            if (trial.run([&] { return aclrtMallocHost(&pointer, 4096); }) != ACL_SUCCESS) {
                CHECK(pointer == nullptr);
                return;
            }
            std::memset(pointer, 7, 4096);
            CHECK_ACL(aclrtFreeHost(pointer));
        });
    }
    SUBCASE("aclrtFree while the memory is still in use by queued work") {
        idle_and_held(stream, [&] {
            sweep_both([&](Trial& trial) {
                void* pointer = nullptr;
                REQUIRE_ACL(aclrtMalloc(&pointer, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
                REQUIRE_ACL(aclrtMemsetAsync(pointer, 4096, 1, 4096, stream));
                if (trial.run([&] { return aclrtFree(pointer); }) == ACL_SUCCESS) {
                    CHECK_ACL_CODE(aclrtFree(pointer), ACL_ERROR_RT_MEMORY_FREE);
                    return;
                }
                // Still allocated, and still usable.
                CHECK_ACL(aclrtMemsetAsync(pointer, 4096, 2, 4096, stream));
                CHECK_ACL(aclrtFree(pointer));
            }, false);
        });
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(device_free() == free_before);
    }
}

TEST_CASE("setting a device and creating a context fail cleanly, leaking no device reference") {
    FaultRuntime rt;
    aclrtContext primary = nullptr;
    REQUIRE_ACL(aclrtGetCurrentContext(&primary));

    SUBCASE("aclrtSetDevice creating the device") {
        sweep_both([&](Trial& trial) {
            const aclError rc = trial.run([] { return aclrtSetDevice(1); });
            CHECK(drain_device_references(1) == (rc == ACL_SUCCESS ? 1 : 0));
            REQUIRE_ACL(aclrtSetCurrentContext(primary));
        });
    }
    SUBCASE("aclrtSetDevice of a device already set") {
        sweep_both([&](Trial& trial) {
            REQUIRE_ACL(aclrtSetDevice(1));
            const aclError rc = trial.run([] { return aclrtSetDevice(1); });
            CHECK(drain_device_references(1) == (rc == ACL_SUCCESS ? 2 : 1));
            REQUIRE_ACL(aclrtSetCurrentContext(primary));
        });
    }
    SUBCASE("aclrtCreateContext") {
        for (bool device_set : {false, true}) {
            CAPTURE(device_set);
            sweep_both([&](Trial& trial) {
                if (device_set) REQUIRE_ACL(aclrtSetDevice(1));
                aclrtContext context = nullptr;
                if (trial.run([&] { return aclrtCreateContext(&context, 1); }) == ACL_SUCCESS) {
                    aclrtStream stream = nullptr;
                    CHECK_ACL(aclrtCreateStream(&stream));
                    CHECK_ACL(aclrtDestroyStream(stream));
                    CHECK_ACL(aclrtDestroyContext(context));
                } else {
                    CHECK(context == nullptr);
                }
                CHECK(drain_device_references(1) == (device_set ? 1 : 0));
                REQUIRE_ACL(aclrtSetCurrentContext(primary));
            });
        }
    }
}

TEST_CASE("exhausting the configured device memory returns ACL_ERROR_RT_MEMORY_ALLOCATION and frees consistently") {
    ConfigFile file(R"({"canopy": {"device_memory_mb": 4}})");
    Runtime rt(file.path());
    constexpr std::size_t block = std::size_t{1} << 20;
    std::vector<void*> blocks;
    for (;;) {
        void* pointer = nullptr;
        const aclError rc = aclrtMalloc(&pointer, block, ACL_MEM_MALLOC_HUGE_FIRST);
        if (rc != ACL_SUCCESS) {
            CHECK(rc == ACL_ERROR_RT_MEMORY_ALLOCATION);
            CHECK(recent_error().find("cannot allocate") != std::string::npos);
            CHECK(pointer == nullptr);
            break;
        }
        blocks.push_back(pointer);
        REQUIRE(blocks.size() <= 4);
    }
    CHECK(blocks.size() == 3);  // each block takes its padding too
    // Freeing gives the bytes back: the same allocation succeeds again, and the memory works.
    REQUIRE_ACL(aclrtFree(blocks.back()));
    REQUIRE_ACL(aclrtMalloc(&blocks.back(), block, ACL_MEM_MALLOC_HUGE_FIRST));
    for (void* pointer : blocks) CHECK_ACL(aclrtMemset(pointer, block, 0x5a, block));
    std::vector<unsigned char> host(block);
    CHECK_ACL(aclrtMemcpy(host.data(), block, blocks.front(), block, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(host == std::vector<unsigned char>(block, 0x5a));
    for (void* pointer : blocks) CHECK_ACL(aclrtFree(pointer));
    size_t free = 0, total = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    CHECK(free == total);
}

#if !CANOPY_TEST_SANITIZED
namespace {
// The process's virtual memory size or data segment size now, from /proc/self/status.
rlim_t current_kib(const std::string& field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field + ":", 0) == 0) return std::stoul(line.substr(field.size() + 1));
    }
    return 0;
}

// Lowers a resource limit's soft value for its scope (an unprivileged process may raise it back).
class LoweredLimit {
public:
    LoweredLimit(int resource, rlim_t bytes) : resource_(resource) {
        REQUIRE(getrlimit(resource_, &saved_) == 0);
        rlimit lowered = saved_;
        lowered.rlim_cur = bytes;
        REQUIRE(setrlimit(resource_, &lowered) == 0);
    }
    ~LoweredLimit() { setrlimit(resource_, &saved_); }
    LoweredLimit(const LoweredLimit&) = delete;
    LoweredLimit& operator=(const LoweredLimit&) = delete;

private:
    int resource_;
    rlimit saved_{};
};

// What the system refusing memory must look like: a small allocation works, one the limit
// cannot hold returns ACL_ERROR_RT_MEMORY_ALLOCATION, and freeing and allocating again works.
void check_system_refusal() {
    constexpr std::size_t small = std::size_t{8} << 20;
    constexpr std::size_t huge = std::size_t{1} << 30;
    void* held = nullptr;
    REQUIRE_ACL(aclrtMalloc(&held, small, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemset(held, small, 1, small));
    void* refused = nullptr;
    CHECK_ACL_CODE(aclrtMalloc(&refused, huge, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK(refused == nullptr);
    CHECK_ACL(aclrtFree(held));
    REQUIRE_ACL(aclrtMalloc(&held, small, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemset(held, small, 2, small));
    CHECK_ACL(aclrtFree(held));
}
}  // namespace

// Sanitizers reserve terabytes of shadow memory, which no address-space limit leaves room for.
TEST_CASE("the system refusing device memory is an error code: no heap reservation, and heap pages that cannot be committed") {
    const std::string config = R"({"canopy": {"workers_per_device": 2, "device_memory_mb": 4096}})";
    ConfigFile file(config);
    SUBCASE("an address-space limit below the device heap's smallest reservation") {
        // The heap reserves its range when the runtime starts; 512 MiB of headroom cannot hold it.
        LoweredLimit limit(RLIMIT_AS, (current_kib("VmSize") << 10) + (std::size_t{512} << 20));
        Runtime rt(file.path());
        check_system_refusal();
    }
    SUBCASE("a data-size limit that lets the heap reserve its range but not commit it") {
        Runtime rt(file.path());
        LoweredLimit limit(RLIMIT_DATA, (current_kib("VmData") << 10) + (std::size_t{512} << 20));
        check_system_refusal();
    }
}
#endif
