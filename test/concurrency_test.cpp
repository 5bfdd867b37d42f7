// Many host threads using the runtime at once: shared and private streams joined by events,
// copy chains across streams, concurrent creation and destruction, concurrent synchronizers.
// Every test checks exact final values.
#include <cstring>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
constexpr int kThreads = 8;
constexpr int kRounds = CANOPY_TEST_SANITIZED ? 100 : 2000;

// Runs body(thread index) on kThreads threads, each with `context` current, all starting together.
// Bodies use CHECK, never REQUIRE: a REQUIRE failing on another thread would terminate the process.
template <class Body>
void on_threads(aclrtContext context, Body body) {
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            CHECK_ACL(aclrtSetCurrentContext(context));
            start.arrive_and_wait();
            body(t);
        });
    }
    for (auto& thread : threads) thread.join();
}

// A host function on the shared stream that checks that the private stream's work it waited
// for (through an event) has run.
struct WaitedCheck {
    std::atomic<int>* private_count;
    int expected_at_least;
    std::atomic<int>* shared_count;
    std::atomic<int>* violations;
};
void check_waited(void* argument) {
    auto* check = static_cast<WaitedCheck*>(argument);
    if (check->private_count->load() < check->expected_at_least) check->violations->fetch_add(1);
    check->shared_count->fetch_add(1);
}
}  // namespace

TEST_CASE("threads enqueue into shared and private streams joined by events; every count is exact") {
    ConfiguredRuntime rt(4);
    const aclrtContext context = rt.context();
    Stream shared;
    std::atomic<int> shared_count{0}, violations{0};
    std::vector<std::atomic<int>> private_counts(kThreads);
    std::vector<std::vector<WaitedCheck>> checks(kThreads, std::vector<WaitedCheck>(kRounds));

    on_threads(context, [&](int t) {
        Stream own;
        Event ready;
        for (int round = 0; round < kRounds; ++round) {
            CHECK_ACL(launch_increment(own, private_counts[t]));
            CHECK_ACL(aclrtRecordEvent(ready, own));
            CHECK_ACL(aclrtStreamWaitEvent(shared, ready));
            checks[t][round] = WaitedCheck{&private_counts[t], round + 1, &shared_count, &violations};
            CHECK_ACL(aclrtLaunchHostFunc(shared, &check_waited, &checks[t][round]));
        }
        CHECK_ACL(aclrtSynchronizeStream(own));
    });
    CHECK_ACL(aclrtSynchronizeStream(shared));

    CHECK(shared_count == kThreads * kRounds);
    CHECK(violations == 0);
    for (int t = 0; t < kThreads; ++t) CHECK(private_counts[t] == kRounds);
}

TEST_CASE("threads run copy chains across two private streams joined by events; the data arrives intact") {
    ConfiguredRuntime rt(4);
    const aclrtContext context = rt.context();
    constexpr std::size_t n = 4096;
    constexpr int kChains = CANOPY_TEST_SANITIZED ? 20 : 200;
    std::atomic<int> corrupted{0};

    on_threads(context, [&](int t) {
        Stream upload, download;
        Event uploaded, downloaded;
        void *in = nullptr, *out = nullptr, *a = nullptr, *b = nullptr;
        CHECK_ACL(aclrtMallocHost(&in, n));
        CHECK_ACL(aclrtMallocHost(&out, n));
        CHECK_ACL(aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_FIRST));
        for (int chain = 0; chain < kChains; ++chain) {
            const int value = (t * 31 + chain) & 0xff;
            // The previous chain's download must be done before `in` and `out` are reused.
            CHECK_ACL(aclrtSynchronizeEvent(downloaded));
            std::memset(in, value, n);
            std::memset(out, 0, n);
            // upload: in -> a -> b; download waits for it, then b -> out.
            CHECK_ACL(aclrtMemcpyAsync(a, n, in, n, ACL_MEMCPY_HOST_TO_DEVICE, upload));
            CHECK_ACL(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, upload));
            CHECK_ACL(aclrtRecordEvent(uploaded, upload));
            CHECK_ACL(aclrtStreamWaitEvent(download, uploaded));
            CHECK_ACL(aclrtMemcpyAsync(out, n, b, n, ACL_MEMCPY_DEVICE_TO_HOST, download));
            CHECK_ACL(aclrtRecordEvent(downloaded, download));
            CHECK_ACL(aclrtSynchronizeEvent(downloaded));
            const auto* bytes = static_cast<const unsigned char*>(out);
            for (std::size_t i = 0; i < n; ++i) {
                if (bytes[i] != value) {
                    corrupted.fetch_add(1);
                    break;
                }
            }
        }
        CHECK_ACL(aclrtSynchronizeStream(upload));
        CHECK_ACL(aclrtSynchronizeStream(download));
        CHECK_ACL(aclrtFree(a));
        CHECK_ACL(aclrtFree(b));
        CHECK_ACL(aclrtFreeHost(in));
        CHECK_ACL(aclrtFreeHost(out));
    });
    CHECK(corrupted == 0);
}

TEST_CASE("threads enqueue into one stream at once; every operation runs exactly once") {
    ConfiguredRuntime rt(4);
    const aclrtContext context = rt.context();
    Stream shared;
    std::vector<std::atomic<int>> counts(kThreads);
    on_threads(context, [&](int t) {
        for (int i = 0; i < kRounds * 4; ++i) CHECK_ACL(launch_increment(shared, counts[t]));
    });
    CHECK_ACL(aclrtSynchronizeStream(shared));
    for (int t = 0; t < kThreads; ++t) CHECK(counts[t] == kRounds * 4);
}

TEST_CASE("threads create, use and destroy streams and events at once") {
    ConfiguredRuntime rt(4);
    const aclrtContext context = rt.context();
    std::atomic<int> counter{0};
    constexpr int kObjects = CANOPY_TEST_SANITIZED ? 20 : 300;
    on_threads(context, [&](int) {
        for (int i = 0; i < kObjects; ++i) {
            aclrtStream stream = nullptr;
            aclrtEvent event = nullptr;
            CHECK_ACL(aclrtCreateStream(&stream));
            CHECK_ACL(aclrtCreateEvent(&event));
            CHECK_ACL(launch_increment(stream, counter));
            CHECK_ACL(aclrtRecordEvent(event, stream));
            CHECK_ACL(aclrtStreamWaitEvent(nullptr, event));  // the shared default stream
            CHECK_ACL(aclrtDestroyEvent(event));
            CHECK_ACL(aclrtDestroyStream(stream));
        }
    });
    CHECK_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(counter == kThreads * kObjects);
}

TEST_CASE("threads allocate and free device memory at once; the budget is whole again afterwards") {
    ConfiguredRuntime rt(2, 1, 64);
    const aclrtContext context = rt.context();
    size_t free_before = 0, total = 0;
    REQUIRE_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
    std::atomic<int> failures{0};
    on_threads(context, [&](int t) {
        std::vector<void*> blocks;
        for (int i = 0; i < 200; ++i) {
            void* block = nullptr;
            if (aclrtMalloc(&block, 1024 + 64 * t + i, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
                failures.fetch_add(1);
                continue;
            }
            blocks.push_back(block);
            if (i % 3 == 0) {
                CHECK_ACL(aclrtFree(blocks.back()));
                blocks.pop_back();
            }
        }
        for (void* block : blocks) CHECK_ACL(aclrtFree(block));
    });
    CHECK(failures == 0);
    size_t free_after = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
    CHECK(free_after == free_before);
}

TEST_CASE("several threads synchronizing one stream all return after its work") {
    ConfiguredRuntime rt(2);
    const aclrtContext context = rt.context();
    Stream stream;
    Gate gate;
    std::atomic<int> counter{0};
    constexpr int kWork = 1000;
    REQUIRE_ACL(gate.hold(stream));
    for (int i = 0; i < kWork; ++i) REQUIRE_ACL(launch_increment(stream, counter));
    std::vector<int> seen(kThreads, -1);
    std::thread opener([&] {
        gate.wait_entered();
        gate.open();
    });
    on_threads(context, [&](int t) {
        // Half wait with a timeout (blocking), half without (helping).
        if (t % 2) CHECK_ACL(aclrtSynchronizeStreamWithTimeout(stream, kBoundMs));
        else CHECK_ACL(aclrtSynchronizeStream(stream));
        seen[t] = counter.load();
    });
    opener.join();
    for (int t = 0; t < kThreads; ++t) CHECK(seen[t] == kWork);
}
