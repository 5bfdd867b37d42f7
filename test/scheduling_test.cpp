// Scheduling semantics: a stream's operations run strictly in order; operations of different
// streams run concurrently; stream priority orders ready work; the default stream and synchronous
// copies do not wait for other streams.
#include <cstring>
#include <mutex>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
// Two host functions on two streams meet: each arrives, then waits (bounded) for the other.
struct Rendezvous {
    std::mutex mutex;
    std::condition_variable cv;
    int arrived = 0;
    int met = 0;  // functions that saw the other one arrive
};
void meet(void* argument) {
    auto* rendezvous = static_cast<Rendezvous*>(argument);
    std::unique_lock lock(rendezvous->mutex);
    ++rendezvous->arrived;
    rendezvous->cv.notify_all();
    if (rendezvous->cv.wait_for(lock, kBound, [&] { return rendezvous->arrived == 2; })) ++rendezvous->met;
}

// Takes the next number of a shared sequence, to tell in which order functions ran.
struct Order {
    std::atomic<int>* next = nullptr;
    std::atomic<int> taken{-1};
};
void take_number(void* argument) {
    auto* order = static_cast<Order*>(argument);
    order->taken = order->next->fetch_add(1);
}
}  // namespace

TEST_CASE("memsets and copies of one stream run strictly in order") {
    Runtime rt;
    Stream stream;
    constexpr std::size_t n = 256;
    constexpr int kRounds = 300;
    void* device = nullptr;
    void* pinned = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, n, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMallocHost(&pinned, n * kRounds));
    auto* out = static_cast<unsigned char*>(pinned);
    std::memset(out, 0xff, n * kRounds);
    // Each round overwrites the same device buffer, then copies it out: only strict order gives
    // every slice its own round's value.
    for (int round = 0; round < kRounds; ++round) {
        REQUIRE_ACL(aclrtMemsetAsync(device, n, round & 0x7f, n, stream));
        REQUIRE_ACL(aclrtMemcpyAsync(out + round * n, n, device, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
    int wrong = 0;
    for (int round = 0; round < kRounds; ++round)
        for (std::size_t i = 0; i < n; ++i) wrong += out[round * n + i] != (round & 0x7f);
    CHECK(wrong == 0);
    CHECK_ACL(aclrtFree(device));
    CHECK_ACL(aclrtFreeHost(pinned));
}

TEST_CASE("operations on different streams run concurrently") {
    ConfiguredRuntime rt(2);
    Stream first, second;
    Rendezvous rendezvous;
    REQUIRE_ACL(aclrtLaunchHostFunc(first, &meet, &rendezvous));
    REQUIRE_ACL(aclrtLaunchHostFunc(second, &meet, &rendezvous));
    CHECK_ACL(aclrtSynchronizeStream(first));
    CHECK_ACL(aclrtSynchronizeStream(second));
    // Both were running at the same time: each saw the other arrive.
    CHECK(rendezvous.met == 2);
}

TEST_CASE("with one worker, ready work of a high-priority stream runs before that of a low-priority stream") {
    ConfiguredRuntime rt(1);
    // All streams exist before any work is enqueued.
    Stream blocker, low(7, 0), high(0, 0);
    Gate gate;
    constexpr int kPerStream = 5;
    std::atomic<int> next{0};
    std::vector<Order> low_order(kPerStream), high_order(kPerStream);
    for (auto& order : low_order) order.next = &next;
    for (auto& order : high_order) order.next = &next;

    // The single worker is held; then low-priority work is enqueued before high-priority work.
    REQUIRE_ACL(gate.hold(blocker));
    REQUIRE(gate.wait_entered());
    for (auto& order : low_order) REQUIRE_ACL(aclrtLaunchHostFunc(low, &take_number, &order));
    for (auto& order : high_order) REQUIRE_ACL(aclrtLaunchHostFunc(high, &take_number, &order));
    gate.open();
    // Wait without synchronizing: a synchronizing thread would help run the work and blur the
    // order the worker chose.
    auto all_taken = [](const std::vector<Order>& orders) {
        for (const auto& order : orders)
            if (order.taken.load() < 0) return false;
        return true;
    };
    REQUIRE(eventually([&] { return all_taken(low_order) && all_taken(high_order); }));

    for (int i = 0; i < kPerStream; ++i) {
        CAPTURE(i);
        CHECK(high_order[i].taken == i);              // every high-priority function first
        CHECK(low_order[i].taken == kPerStream + i);  // then the low-priority ones
    }
    CHECK_ACL(aclrtSynchronizeDevice());
}

TEST_CASE("the default stream does not wait for other streams") {
    ConfiguredRuntime rt(2);
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    std::atomic<int> counter{0};
    REQUIRE_ACL(launch_increment(nullptr, counter));
    CHECK_ACL(aclrtSynchronizeStreamWithTimeout(nullptr, kBoundMs));
    CHECK(counter == 1);
    CHECK(gate.left() == 0);  // still held
    gate.open();
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("a synchronous aclrtMemcpy does not wait for pending stream work") {
    ConfiguredRuntime rt(2);
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(gate.hold(nullptr));
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char in[64], out[64] = {};
    std::memset(in, 0x42, sizeof in);
    CHECK_ACL(aclrtMemcpy(device, 64, in, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(out, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(std::memcmp(in, out, 64) == 0);
    CHECK_ACL(aclrtMemset(device, 64, 0, 64));
    CHECK(gate.left() == 0);  // both streams still held
    gate.open();
    CHECK_ACL(aclrtSynchronizeDevice());
    CHECK_ACL(aclrtFree(device));
}
