// aclInit / aclFinalize / aclFinalizeReference: reference counting, concurrent initialization and
// the JSON config file.
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
// A cheap call that needs an initialized runtime and does not start one (aclrtSetDevice and
// aclrtGetDeviceCount would, as in CANN).
aclError probe_initialized() {
    aclrtRunMode mode;
    return aclrtGetRunMode(&mode);
}

bool message_mentions(const std::string& text) { return recent_error().find(text) != std::string::npos; }
}  // namespace

TEST_CASE("aclInit with a NULL path initializes and aclFinalize finalizes") {
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
    REQUIRE_ACL(aclInit(nullptr));
    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 1);  // the default configuration has one device
    CHECK_ACL(aclFinalize());
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("calls before aclInit that need a device return ACL_ERROR_UNINITIALIZE") {
    aclrtStream stream = nullptr;
    void* memory = nullptr;
    CHECK_ACL_CODE(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
    CHECK_ACL_CODE(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    CHECK_ACL_CODE(aclrtSynchronizeStream(nullptr), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("a program that skips aclInit: aclrtSetDevice starts the runtime with the defaults") {
    REQUIRE_ACL(aclrtSetDevice(0));
    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 1);
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == 1);
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());  // ends the implicitly started runtime
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("aclInit after an implicit start takes it over; Canopy options can no longer apply") {
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclInit(nullptr));  // the first aclInit: success, one reference
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ACL(aclFinalize());

    REQUIRE_ACL(aclrtSetDevice(0));
    ConfigFile file(R"({"canopy": {"device_count": 2}})");
    CHECK_ACL_CODE(aclInit(file.path()), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK(message_mentions("before aclInit"));
    CHECK_ACL(aclFinalize());
}

TEST_CASE("without a path of its own a program gets the configuration named by CANOPY_CONFIG") {
    ConfigFile file(R"({"canopy": {"device_count": 2}})");
    ::setenv("CANOPY_CONFIG", file.path(), 1);
    uint32_t count = 0;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 2);
    CHECK_ACL(aclFinalize());
    CHECK_ACL(aclrtGetDeviceCount(&count));  // an implicit start reads it too
    CHECK(count == 2);
    CHECK_ACL(aclFinalize());
    ::setenv("CANOPY_CONFIG", "/nonexistent/canopy.json", 1);
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_INVALID_FILE);
    CHECK(message_mentions("CANOPY_CONFIG"));
    ::unsetenv("CANOPY_CONFIG");
}

TEST_CASE("aclrtGetSocName answers before aclInit") {
    const char* soc = aclrtGetSocName();
    REQUIRE(soc != nullptr);
    CHECK(std::string(soc) == "Ascend910B4");
}

TEST_CASE("a second aclInit returns REPEAT_INITIALIZE and adds a reference for aclFinalizeReference") {
    REQUIRE_ACL(aclInit(nullptr));
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);

    uint64_t references = 99;
    CHECK_ACL(aclFinalizeReference(&references));
    CHECK(references == 1);
    CHECK_ACL(probe_initialized());  // one reference left: still initialized

    CHECK_ACL(aclFinalizeReference(&references));
    CHECK(references == 0);
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);

    CHECK_ACL_CODE(aclFinalizeReference(&references), ACL_ERROR_REPEAT_FINALIZE);
}

TEST_CASE("aclFinalize finalizes whatever the reference count, and a second one is REPEAT_FINALIZE") {
    REQUIRE_ACL(aclInit(nullptr));
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ACL(aclFinalize());
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
    CHECK_ACL_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST_CASE("finalizing before any aclInit is REPEAT_FINALIZE") {
    uint64_t references = 0;
    CHECK_ACL_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_ACL_CODE(aclFinalizeReference(&references), ACL_ERROR_REPEAT_FINALIZE);
}

TEST_CASE("aclFinalizeReference rejects a NULL refCount") {
    Initialized init;
    CHECK_ACL_CODE(aclFinalizeReference(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(probe_initialized());
}

TEST_CASE("the runtime can be initialized again after it was finalized") {
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        REQUIRE_ACL(aclInit(nullptr));
        REQUIRE_ACL(aclrtSetDevice(0));
        std::atomic<int> counter{0};
        CHECK_ACL(launch_increment(nullptr, counter));
        CHECK_ACL(aclrtSynchronizeStream(nullptr));
        CHECK(counter == 1);
        CHECK_ACL(aclrtResetDevice(0));
        CHECK_ACL(aclFinalize());
    }
}

TEST_CASE("concurrent aclInit from many threads gives exactly one ACL_SUCCESS") {
    constexpr int kThreads = 16;
    std::vector<aclError> results(kThreads, -1);
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back([&, i] {
            start.arrive_and_wait();  // all threads call aclInit at once
            results[i] = aclInit(nullptr);
        });
    }
    for (auto& thread : threads) thread.join();

    int successes = 0, repeats = 0;
    for (aclError rc : results) {
        if (rc == ACL_SUCCESS) ++successes;
        if (rc == ACL_ERROR_REPEAT_INITIALIZE) ++repeats;
    }
    CHECK(successes == 1);
    CHECK(repeats == kThreads - 1);

    // Every call counted a reference: it takes kThreads releases to finalize.
    for (uint64_t expected = kThreads - 1;; --expected) {
        uint64_t references = 0;
        REQUIRE_ACL(aclFinalizeReference(&references));
        REQUIRE(references == expected);
        if (expected == 0) break;
        CHECK_ACL(probe_initialized());
    }
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("a config file's canopy section sets the device count and device memory") {
    ConfigFile file(R"({"canopy": {"device_count": 2, "workers_per_device": 1, "ub_size_kb": 192,
                        "device_memory_mb": 64}})");
    Initialized init(file.path());

    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 2);

    CHECK_ACL(aclrtSetDevice(1));
    CHECK_ACL_CODE(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    size_t free = 0, total = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    CHECK(total == size_t{64} << 20);

    // One worker still runs the work.
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == 1);
    CHECK_ACL(aclrtResetDevice(1));
}

TEST_CASE("a config file without a canopy section (CANN's own keys) keeps the defaults") {
    ConfigFile file(R"({"dump": {"dump_list": []}, "profiler": {"switch": "off"}})");
    Initialized init(file.path());
    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    CHECK(count == 1);
}

TEST_CASE("malformed JSON is rejected with a message naming the file, and leaves the runtime uninitialized") {
    ConfigFile file(R"({"canopy": {"device_count": 2,)");
    CHECK_ACL_CODE(aclInit(file.path()), ACL_ERROR_PARSE_FILE);
    CHECK(message_mentions("aclInit"));
    CHECK(message_mentions(file.path()));
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
    // The failed call did not count a reference: a later aclInit is the first one.
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclFinalize());
}

TEST_CASE("an unknown canopy key is rejected with a message naming it") {
    ConfigFile file(R"({"canopy": {"device_count": 1, "worker_count": 4}})");
    CHECK_ACL_CODE(aclInit(file.path()), ACL_ERROR_FILE_ATTR_INVALID);
    CHECK(message_mentions("worker_count"));
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("out-of-range and mistyped canopy values are rejected with a message naming the key") {
    const char* documents[] = {
        R"({"canopy": {"device_count": 0}})",
        R"({"canopy": {"device_count": "2"}})",
        R"({"canopy": {"device_memory_mb": -1}})",
        R"({"canopy": {"workers_per_device": 1.5}})",
        R"({"canopy": 3})",
    };
    for (const char* document : documents) {
        CAPTURE(document);
        ConfigFile file(document);
        const aclError rc = aclInit(file.path());
        CHECK(rc == ACL_ERROR_FILE_ATTR_INVALID);
        CHECK(message_mentions("canopy"));
        if (rc == ACL_SUCCESS) aclFinalize();
    }
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}

TEST_CASE("a missing config file is rejected with a message naming it") {
    const char* path = "/tmp/canopy-test-this-file-does-not-exist.json";
    CHECK_ACL_CODE(aclInit(path), ACL_ERROR_INVALID_FILE);
    CHECK(message_mentions(path));
    CHECK_ACL_CODE(probe_initialized(), ACL_ERROR_UNINITIALIZE);
}
