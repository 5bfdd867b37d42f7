// Failure of a stream's operation: a host function that throws fails its stream (the next
// synchronize reports it, naming the cause) and never terminates the process. With
// ACL_STOP_ON_FAILURE the stream's later operations are skipped, with ACL_CONTINUE_ON_FAILURE they
// run; other streams are untouched and event records always complete.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
void throw_runtime_error(void*) { throw std::runtime_error("host function exploded (marker 4711)"); }
void throw_int(void*) { throw 42; }

bool mentions(const std::string& text) { return recent_error().find(text) != std::string::npos; }

void* device_buffer(std::size_t size) {
    void* memory = nullptr;
    REQUIRE_ACL(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_HUGE_FIRST));
    return memory;
}

unsigned char read_byte(const void* device) {
    unsigned char value = 0;
    CHECK_ACL(aclrtMemcpy(&value, 1, device, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    return value;
}
}  // namespace

TEST_CASE("a host function that throws fails its stream: the next synchronize reports it once") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
    const aclError rc = aclrtSynchronizeStream(stream);
    CHECK(rc != ACL_SUCCESS);
    CHECK(rc == ACL_ERROR_RT_INTERNAL_ERROR);  // engine/operation.h: any non-OperationError exception
    CHECK(mentions("aclrtSynchronizeStream"));
    CHECK(mentions("host function"));
    CHECK(mentions("marker 4711"));  // the exception's own text

    // Reported once; the stream works again afterwards.
    CHECK_ACL(aclrtSynchronizeStream(stream));
    std::atomic<int> counter{0};
    CHECK_ACL(launch_increment(stream, counter));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(counter == 1);
}

TEST_CASE("a failure is written to stderr when it happens, once per failed run of the stream") {
    // Programs that ignore the synchronize's code still see why their result is wrong.
    char path[] = "/tmp/canopy-stderr-XXXXXX";
    const int capture = mkstemp(path);
    REQUIRE(capture >= 0);
    std::fflush(stderr);
    const int saved = dup(2);
    dup2(capture, 2);
    {
        Runtime rt;
        Stream stream;
        REQUIRE_ACL(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_INTERNAL_ERROR);
    }
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(capture);
    std::stringstream written;
    written << std::ifstream(path).rdbuf();
    std::remove(path);
    const std::string text = written.str();
    const auto first = text.find("marker 4711");
    REQUIRE(first != std::string::npos);
    CHECK(text.find("[ERROR] CANOPY") != std::string::npos);
    CHECK(text.find(std::to_string(ACL_ERROR_RT_INTERNAL_ERROR)) != std::string::npos);
    CHECK(text.find("marker 4711", first + 1) == std::string::npos);
}

TEST_CASE("a host function that throws something other than std::exception fails the stream too") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_int, nullptr));
    CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    CHECK(mentions("host function"));
}

TEST_CASE("the failure is reported by the timed synchronize and by aclrtSynchronizeDevice") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
    CHECK(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs) != ACL_SUCCESS);
    CHECK(mentions("marker 4711"));

    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
    CHECK(aclrtSynchronizeDevice() != ACL_SUCCESS);
    CHECK(mentions("aclrtSynchronizeDevice"));
    CHECK(mentions("marker 4711"));
    CHECK_ACL(aclrtSynchronizeDevice());
}

TEST_CASE("by default (ACL_CONTINUE_ON_FAILURE) the operations after a failure still run") {
    Runtime rt;
    Stream stream;
    void* device = device_buffer(64);
    std::atomic<int> after{0};
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
    REQUIRE_ACL(launch_increment(stream, after));
    REQUIRE_ACL(aclrtMemsetAsync(device, 64, 0x3c, 64, stream));
    CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    CHECK(after == 1);
    CHECK(read_byte(device) == 0x3c);
    CHECK_ACL(aclrtFree(device));
}

TEST_CASE("ACL_CONTINUE_ON_FAILURE set explicitly runs the later operations") {
    Runtime rt;
    Stream stream;
    REQUIRE_ACL(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    REQUIRE_ACL(aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
    std::atomic<int> after{0};
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &throw_runtime_error, nullptr));
    for (int i = 0; i < 10; ++i) REQUIRE_ACL(launch_increment(stream, after));
    CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    CHECK(after == 10);
}

TEST_CASE("ACL_STOP_ON_FAILURE skips the stream's later operations but still completes its event records") {
    ConfiguredRuntime rt(2);
    Stream failing, other;
    REQUIRE_ACL(aclrtSetStreamFailureMode(failing, ACL_STOP_ON_FAILURE));
    void* device = device_buffer(64);
    REQUIRE_ACL(aclrtMemset(device, 64, 0, 64));
    Event event;
    std::atomic<int> before{0}, skipped{0}, on_other{0}, waiting{0};

    REQUIRE_ACL(launch_increment(failing, before));
    REQUIRE_ACL(aclrtLaunchHostFunc(failing, &throw_runtime_error, nullptr));
    for (int i = 0; i < 10; ++i) REQUIRE_ACL(launch_increment(failing, skipped));
    REQUIRE_ACL(aclrtMemsetAsync(device, 64, 0x77, 64, failing));
    REQUIRE_ACL(aclrtRecordEvent(event, failing));
    // Another stream that waits on the failing stream's event, and one that is unrelated.
    REQUIRE_ACL(aclrtStreamWaitEvent(other, event));
    REQUIRE_ACL(launch_increment(other, waiting));
    REQUIRE_ACL(launch_increment(nullptr, on_other));

    const aclError rc = aclrtSynchronizeStream(failing);
    CHECK(rc != ACL_SUCCESS);
    CHECK(mentions("marker 4711"));
    CHECK(before == 1);
    CHECK(skipped == 0);
    CHECK(read_byte(device) == 0);  // the memset was skipped as well

    // The record ran: the event is complete and the stream that waited on it went on.
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(event, &status));
    CHECK(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_ACL(aclrtSynchronizeStream(other));  // other streams are not failed
    CHECK(waiting == 1);
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(on_other == 1);
    CHECK_ACL(aclrtFree(device));
}

TEST_CASE("a failure on one stream leaves the other streams' synchronize clean") {
    Runtime rt;
    Stream failing, healthy;
    std::atomic<int> counter{0};
    REQUIRE_ACL(aclrtLaunchHostFunc(failing, &throw_runtime_error, nullptr));
    REQUIRE_ACL(launch_increment(healthy, counter));
    CHECK_ACL(aclrtSynchronizeStream(healthy));
    CHECK(counter == 1);
    CHECK(aclrtSynchronizeStream(failing) != ACL_SUCCESS);
}

TEST_CASE("many throwing host functions on many streams never terminate the process") {
    ConfiguredRuntime rt(2);
    constexpr int kStreams = 4, kPerStream = 100;
    std::vector<std::unique_ptr<Stream>> streams;
    std::atomic<int> survived{0};
    for (int s = 0; s < kStreams; ++s) {
        streams.push_back(std::make_unique<Stream>());
        if (s % 2) REQUIRE_ACL(aclrtSetStreamFailureMode(*streams.back(), ACL_STOP_ON_FAILURE));
        for (int i = 0; i < kPerStream; ++i) {
            REQUIRE_ACL(aclrtLaunchHostFunc(*streams.back(), i % 2 ? &throw_int : &throw_runtime_error, nullptr));
            REQUIRE_ACL(launch_increment(*streams.back(), survived));
        }
    }
    for (auto& stream : streams) CHECK(aclrtSynchronizeStream(*stream) != ACL_SUCCESS);
    // Only the CONTINUE streams ran their increments.
    CHECK(survived == kStreams / 2 * kPerStream);
}
