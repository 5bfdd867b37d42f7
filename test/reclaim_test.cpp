// The memory of finished work is reclaimed: running many operations, or creating and destroying
// many streams and events, does not grow the resident set once the runtime is warm.
#include <cstddef>

#include "support.h"

using namespace canopy_test;

#if defined(__SANITIZE_ADDRESS__)
// ASan keeps freed blocks in a quarantine (256 MiB by default), which would read as growth here.
extern "C" const char* __asan_default_options() { return "quarantine_size_mb=0"; }
#endif

namespace {
// Sanitizer builds are 10-50x slower; fewer operations still show a leak of any real size.
constexpr int kOperationsPerPhase = CANOPY_TEST_SANITIZED ? 100'000 : 1'000'000;
constexpr int kObjectsPerPhase = CANOPY_TEST_SANITIZED ? 500 : 5'000;
constexpr int kBatch = 10'000;  // operations enqueued between synchronizes
// ThreadSanitizer's own shadow memory, traces and stored reports grow by several MiB on their own;
// a leak of even one pooled node per operation would still be ~40 MiB per 100'000 operations.
constexpr std::size_t kAllowedGrowth = std::size_t{CANOPY_TEST_TSAN ? 16 : 4} << 20;

std::size_t growth(std::size_t before, std::size_t after) { return after > before ? after - before : 0; }
}  // namespace

TEST_CASE("running a million host functions on one stream does not grow the resident set") {
    Runtime rt;
    Stream stream;
    std::atomic<int> counter{0};
    auto run_phase = [&] {
        for (int done = 0; done < kOperationsPerPhase; done += kBatch) {
            for (int i = 0; i < kBatch; ++i) REQUIRE_ACL(launch_increment(stream, counter));
            REQUIRE_ACL(aclrtSynchronizeStream(stream));
        }
    };
    // Warm: operation pools and allocator arenas reach their working size. A whole batch held
    // queued behind a gate sets the pool's peak, which a worker falling behind in a later batch
    // (a busy machine) could otherwise raise after the warm reading.
    {
        Gate gate;
        REQUIRE_ACL(gate.hold(stream));
        for (int i = 0; i < kBatch; ++i) REQUIRE_ACL(launch_increment(stream, counter));
        gate.open();
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
    }
    run_phase();
    const std::size_t warm = resident_bytes();
    run_phase();
    const std::size_t after = resident_bytes();
    CHECK(counter == 2 * kOperationsPerPhase + kBatch);
    CAPTURE(warm);
    CAPTURE(after);
    CHECK(growth(warm, after) <= kAllowedGrowth);
}

TEST_CASE("copies, memsets and event records across two streams do not grow the resident set") {
    Runtime rt;
    Stream producer, consumer;
    Event event;
    Event consumed;  // the next memset must not overwrite what the consumer is still copying
    void *device = nullptr, *pinned = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMallocHost(&pinned, 256));
    auto run_phase = [&] {
        for (int done = 0; done < kOperationsPerPhase / 6; done += kBatch / 6) {
            for (int i = 0; i < kBatch / 6; ++i) {
                REQUIRE_ACL(aclrtMemsetAsync(device, 256, i & 0xff, 256, producer));
                REQUIRE_ACL(aclrtRecordEvent(event, producer));
                REQUIRE_ACL(aclrtStreamWaitEvent(consumer, event));
                REQUIRE_ACL(aclrtMemcpyAsync(pinned, 256, device, 256, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
                REQUIRE_ACL(aclrtRecordEvent(consumed, consumer));
                REQUIRE_ACL(aclrtStreamWaitEvent(producer, consumed));
            }
            REQUIRE_ACL(aclrtSynchronizeStream(consumer));
            REQUIRE_ACL(aclrtSynchronizeStream(producer));
        }
    };
    run_phase();
    const std::size_t warm = resident_bytes();
    run_phase();
    const std::size_t after = resident_bytes();
    CAPTURE(warm);
    CAPTURE(after);
    CHECK(growth(warm, after) <= kAllowedGrowth);
    CHECK_ACL(aclrtFree(device));
    CHECK_ACL(aclrtFreeHost(pinned));
}

TEST_CASE("creating and destroying streams and events does not grow the resident set") {
    Runtime rt;
    std::atomic<int> counter{0};
    auto run_phase = [&] {
        for (int i = 0; i < kObjectsPerPhase; ++i) {
            aclrtStream stream = nullptr;
            aclrtEvent event = nullptr;
            REQUIRE_ACL(aclrtCreateStream(&stream));
            REQUIRE_ACL(aclrtCreateEvent(&event));
            REQUIRE_ACL(launch_increment(stream, counter));
            REQUIRE_ACL(aclrtRecordEvent(event, stream));
            REQUIRE_ACL(aclrtDestroyEvent(event));
            REQUIRE_ACL(aclrtDestroyStream(stream));
        }
    };
    run_phase();
    const std::size_t warm = resident_bytes();
    run_phase();
    const std::size_t after = resident_bytes();
    CHECK(counter == 2 * kObjectsPerPhase);
    CAPTURE(warm);
    CAPTURE(after);
    CHECK(growth(warm, after) <= kAllowedGrowth);
}

TEST_CASE("allocating and freeing device memory does not grow the resident set") {
    Runtime rt;
    auto run_phase = [&] {
        for (int i = 0; i < kObjectsPerPhase * 10; ++i) {
            void* memory = nullptr;
            REQUIRE_ACL(aclrtMalloc(&memory, 4096 + (i % 64) * 64, ACL_MEM_MALLOC_HUGE_FIRST));
            REQUIRE_ACL(aclrtFree(memory));
        }
    };
    run_phase();
    const std::size_t warm = resident_bytes();
    run_phase();
    const std::size_t after = resident_bytes();
    CAPTURE(warm);
    CAPTURE(after);
    CHECK(growth(warm, after) <= kAllowedGrowth);
}
