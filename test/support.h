#pragma once
// Shared by the test programs: result checks that print aclGetRecentErrMsg, RAII fixtures for
// aclInit and aclrtSetDevice, gates that hold a stream until the test opens them, bounded waits,
// temporary aclInit config files and small host functions.
//
// Rule of the suite: no test relies on timing for its verdict. Work that must not have run yet is
// held behind a Gate; anything a test waits for is waited for with a bound (kBound) that is only
// ever reached when the test is failing, so a broken runtime fails a test instead of hanging it.
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define CANOPY_TEST_SANITIZED 1
#else
#define CANOPY_TEST_SANITIZED 0
#endif
#if defined(__SANITIZE_THREAD__)
#define CANOPY_TEST_TSAN 1
#else
#define CANOPY_TEST_TSAN 0
#endif

namespace canopy_test {

// How long any wait of the suite may take before the test counts as failed.
inline constexpr std::chrono::seconds kBound{CANOPY_TEST_SANITIZED ? 120 : 30};
inline constexpr int32_t kBoundMs = static_cast<int32_t>(kBound.count() * 1000);

// aclGetRecentErrMsg consumes the message, as in CANN; the suite keeps the last one it read per
// thread, so that a test may check several things in one message.
inline std::string recent_error() {
    thread_local std::string last = "(no message)";
    if (const char* message = aclGetRecentErrMsg()) last = message;
    return last;
}

}  // namespace canopy_test

// The call must succeed; on failure the check prints the code and the runtime's message.
#define CHECK_ACL(expr)                                                                              \
    do {                                                                                             \
        const aclError canopy_rc_ = (expr);                                                          \
        if (canopy_rc_ != ACL_SUCCESS)                                                               \
            FAIL_CHECK(#expr " returned " << canopy_rc_ << ": " << canopy_test::recent_error());     \
    } while (false)

#define REQUIRE_ACL(expr)                                                                            \
    do {                                                                                             \
        const aclError canopy_rc_ = (expr);                                                          \
        if (canopy_rc_ != ACL_SUCCESS)                                                               \
            FAIL(#expr " returned " << canopy_rc_ << ": " << canopy_test::recent_error());           \
    } while (false)

// The call must fail with exactly `code`.
#define CHECK_ACL_CODE(expr, code)                                                                   \
    do {                                                                                             \
        const aclError canopy_rc_ = (expr);                                                          \
        const aclError canopy_expected_ = (code);                                                    \
        if (canopy_rc_ != canopy_expected_)                                                          \
            FAIL_CHECK(#expr " returned " << canopy_rc_ << ", expected " #code " (" << canopy_expected_ \
                                          << "): " << canopy_test::recent_error());                  \
    } while (false)

namespace canopy_test {

// Device memory of `count` elements of T, zeroed, or holding a copy of host data; read back with
// aclrtMemcpy. The one device buffer of the suite.
template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&device_), bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        clear();
    }
    explicit DeviceArray(const std::vector<T>& host) : count_(host.size()) {
        REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&device_), bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ~DeviceArray() { aclrtFree(device_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* get() const { return device_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }
    std::vector<T> read() const {
        std::vector<T> host(count_);
        REQUIRE_ACL(aclrtMemcpy(host.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host;
    }
    void clear() { REQUIRE_ACL(aclrtMemset(device_, bytes(), 0, bytes())); }

private:
    std::size_t count_;
    T* device_ = nullptr;
};

// A JSON file for aclInit, removed again at the end of the test.
class ConfigFile {
public:
    explicit ConfigFile(const std::string& contents) {
        char name[] = "/tmp/canopy-test-XXXXXX.json";
        const int fd = ::mkstemps(name, 5);
        REQUIRE_MESSAGE(fd >= 0, "cannot create a temporary config file");
        ::close(fd);
        path_ = name;
        std::ofstream(path_) << contents;
    }
    ~ConfigFile() { std::remove(path_.c_str()); }
    ConfigFile(const ConfigFile&) = delete;
    ConfigFile& operator=(const ConfigFile&) = delete;

    const char* path() const { return path_.c_str(); }

private:
    std::string path_;
};

// A directory under /tmp for the files a test makes the runtime write, removed at its end.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        char name[] = "/tmp/canopy-test-XXXXXX";
        REQUIRE(::mkdtemp(name) != nullptr);
        path_ = name;
    }
    ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// aclInit for the scope of a test; aclFinalize at its end (whatever the reference count).
class Initialized {
public:
    explicit Initialized(const char* config_path = nullptr) { REQUIRE_ACL(aclInit(config_path)); }
    ~Initialized() { aclFinalize(); }
    Initialized(const Initialized&) = delete;
    Initialized& operator=(const Initialized&) = delete;
};

// aclInit + aclrtSetDevice(device): the calling thread has the device's default context current.
class Runtime {
public:
    explicit Runtime(const char* config_path = nullptr, int32_t device = 0) : init_(config_path), device_(device) {
        REQUIRE_ACL(aclrtSetDevice(device_));
    }
    // Resetting the device waits for its pending work, so gates must be open by now (they are
    // declared after the runtime and so destroyed, which opens them, before it).
    ~Runtime() { aclrtResetDevice(device_); }
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    aclrtContext context() const {
        aclrtContext context = nullptr;
        CHECK_ACL(aclrtGetCurrentContext(&context));
        return context;
    }

private:
    Initialized init_;
    int32_t device_;
};

// A runtime whose devices each have `workers` worker threads, for the tests that need a known
// amount of device concurrency.
class ConfiguredRuntime {
public:
    explicit ConfiguredRuntime(int workers, int device_count = 1, int device_memory_mb = 256)
        : file_("{\"canopy\": {\"device_count\": " + std::to_string(device_count) +
                ", \"workers_per_device\": " + std::to_string(workers) +
                ", \"device_memory_mb\": " + std::to_string(device_memory_mb) + "}}"),
          runtime_(file_.path()) {}

    aclrtContext context() const { return runtime_.context(); }

private:
    ConfigFile file_;
    Runtime runtime_;
};

// A stream created for the scope of a test (destroyed at its end, which waits for its work).
class Stream {
public:
    Stream() { REQUIRE_ACL(aclrtCreateStream(&stream_)); }
    Stream(uint32_t priority, uint32_t flags) { REQUIRE_ACL(aclrtCreateStreamWithConfig(&stream_, priority, flags)); }
    ~Stream() {
        if (stream_) aclrtDestroyStream(stream_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    operator aclrtStream() const { return stream_; }
    // The test destroys the stream itself.
    aclrtStream release() { return std::exchange(stream_, nullptr); }

private:
    aclrtStream stream_ = nullptr;
};

class Event {
public:
    Event() { REQUIRE_ACL(aclrtCreateEvent(&event_)); }
    explicit Event(uint32_t flags) { REQUIRE_ACL(aclrtCreateEventWithFlag(&event_, flags)); }
    ~Event() {
        if (event_) aclrtDestroyEvent(event_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    operator aclrtEvent() const { return event_; }
    aclrtEvent release() { return std::exchange(event_, nullptr); }

private:
    aclrtEvent event_ = nullptr;
};

// Waits until pred() holds, at most `bound`; returns pred().
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds bound = kBound) {
    const auto deadline = std::chrono::steady_clock::now() + bound;
    while (!pred()) {
        if (std::chrono::steady_clock::now() >= deadline) return pred();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

// A one-shot flag that threads can wait on with a bound.
class Flag {
public:
    void set() {
        {
            std::lock_guard lock(mutex_);
            set_ = true;
        }
        cv_.notify_all();
    }
    bool is_set() const {
        std::lock_guard lock(mutex_);
        return set_;
    }
    bool wait(std::chrono::milliseconds bound = kBound) const {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, bound, [&] { return set_; });
    }

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable cv_;
    bool set_ = false;
};

// Holds streams: hold(stream) enqueues a host function that blocks until open() is called (or,
// when a test is failing, until kBound has passed: then timed_out() tells). Opened on destruction.
// Each enqueued function keeps the gate's state alive, so a gate may go out of scope before the
// functions it enqueued have run.
class Gate {
public:
    Gate() : state_(std::make_shared<State>()) {}
    ~Gate() { open(); }
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;

    aclError hold(aclrtStream stream) {
        auto* reference = new std::shared_ptr<State>(state_);
        const aclError rc = aclrtLaunchHostFunc(stream, &Gate::run, reference);
        if (rc != ACL_SUCCESS) delete reference;
        return rc;
    }

    void open() {
        {
            std::lock_guard lock(state_->mutex);
            state_->open = true;
        }
        state_->cv.notify_all();
    }

    // Waits (bounded) until `count` held functions have started.
    bool wait_entered(int count = 1) const {
        std::unique_lock lock(state_->mutex);
        return state_->cv.wait_for(lock, kBound, [&] { return state_->entered >= count; });
    }
    int entered() const {
        std::lock_guard lock(state_->mutex);
        return state_->entered;
    }
    int left() const {
        std::lock_guard lock(state_->mutex);
        return state_->left;
    }
    bool timed_out() const {
        std::lock_guard lock(state_->mutex);
        return state_->timed_out;
    }

private:
    struct State {
        std::mutex mutex;
        std::condition_variable cv;
        bool open = false;
        bool timed_out = false;
        int entered = 0;
        int left = 0;
    };

    static void run(void* argument) {
        const std::unique_ptr<std::shared_ptr<State>> reference(static_cast<std::shared_ptr<State>*>(argument));
        State& state = **reference;
        std::unique_lock lock(state.mutex);
        ++state.entered;
        state.cv.notify_all();
        if (!state.cv.wait_for(lock, kBound, [&] { return state.open; })) state.timed_out = true;
        ++state.left;
        state.cv.notify_all();
    }

    std::shared_ptr<State> state_;
};

// Host functions over an std::atomic<int> passed as the argument.
inline void increment(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); }

inline aclError launch_increment(aclrtStream stream, std::atomic<int>& counter) {
    return aclrtLaunchHostFunc(stream, &increment, &counter);
}

inline uint64_t this_thread_id() { return static_cast<uint64_t>(pthread_self()); }

// Resident set size of this process, from /proc/self/statm.
inline std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t total_pages = 0, resident_pages = 0;
    statm >> total_pages >> resident_pages;
    return resident_pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace canopy_test
