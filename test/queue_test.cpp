// Bounded stream queues: a stream holds at most canopy.queue_depth queued operations (plus up to
// Stream::room_check_interval per submitting thread, where the depth is checked); beyond that an
// enqueue waits for room, or fails with ACL_ERROR_RT_STREAM_TASK_FULL when waiting could never end
// or the configuration says so. Work enqueued before a refusal still runs, in order.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "canopy/engine/stream.h"
#include "support.h"

using namespace canopy_test;

namespace {
constexpr int kDepth = 64;  // the smallest depth the configuration accepts
constexpr int kSlack = static_cast<int>(canopy::engine::Stream::room_check_interval);

std::string depth_config(const char* queue_full) {
    return std::string("{\"canopy\": {\"queue_depth\": ") + std::to_string(kDepth) + ", \"queue_full\": \"" +
           queue_full + "\"}}";
}

// Host functions that append their index to a list, so that the test sees which ran, and in
// which order.
struct Ledger {
    std::mutex mutex;
    std::vector<int> ran;
    struct Entry {
        Ledger* ledger;
        int index;
    };
    std::vector<Entry> entries;

    explicit Ledger(int capacity) {
        entries.reserve(static_cast<std::size_t>(capacity));
        for (int i = 0; i < capacity; ++i) entries.push_back(Entry{this, i});
    }
    static void run(void* argument) {
        auto* entry = static_cast<Entry*>(argument);
        std::lock_guard lock(entry->ledger->mutex);
        entry->ledger->ran.push_back(entry->index);
    }
    aclError launch(aclrtStream stream, int index) {
        return aclrtLaunchHostFunc(stream, &Ledger::run, &entries[static_cast<std::size_t>(index)]);
    }
    std::vector<int> copy() {
        std::lock_guard lock(mutex);
        return ran;
    }
};

std::vector<int> first(int count) {
    std::vector<int> indices(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) indices[static_cast<std::size_t>(i)] = i;
    return indices;
}
}  // namespace

TEST_CASE("an enqueue onto a full stream waits until the stream makes room") {
    ConfigFile config(depth_config("wait"));
    Runtime runtime(config.path());
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE(gate.wait_entered());

    constexpr int kCount = 10 * kDepth;
    Ledger ledger(kCount);
    std::atomic<int> enqueued{0};
    std::atomic<aclError> failed{ACL_SUCCESS};
    const aclrtContext context = runtime.context();
    std::thread submitter([&] {
        aclrtSetCurrentContext(context);
        for (int i = 0; i < kCount; ++i) {
            const aclError rc = ledger.launch(stream, i);
            if (rc != ACL_SUCCESS) {
                failed = rc;
                return;
            }
            ++enqueued;
        }
    });
    // The submitter reaches the depth; whatever it does meanwhile, it never goes past the
    // depth and the slack while the gate holds the stream.
    CHECK(eventually([&] { return enqueued >= kDepth - 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(enqueued <= kDepth + kSlack);
    CHECK(ledger.copy().empty());

    gate.open();
    submitter.join();
    CHECK(failed == ACL_SUCCESS);
    CHECK(enqueued == kCount);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(ledger.copy() == first(kCount));
}

TEST_CASE("with queue_full \"fail\" an enqueue onto a full stream fails at once, and the queued work runs") {
    ConfigFile config(depth_config("fail"));
    Runtime runtime(config.path());
    Stream stream;
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE(gate.wait_entered());

    constexpr int kCount = 4 * kDepth;
    Ledger ledger(kCount);
    int accepted = 0;
    aclError rc = ACL_SUCCESS;
    while (accepted < kCount && (rc = ledger.launch(stream, accepted)) == ACL_SUCCESS) ++accepted;
    CHECK(rc == ACL_ERROR_RT_STREAM_TASK_FULL);
    CHECK(recent_error().find("aclrtLaunchHostFunc") != std::string::npos);
    CHECK(recent_error().find("queue_depth") != std::string::npos);
    CHECK(accepted >= kDepth - kSlack);
    CHECK(accepted <= kDepth + kSlack);
    // Event records and waits count as operations too.
    Event event;
    aclError event_rc = ACL_SUCCESS;
    for (int i = 0; i < kSlack + 1 && event_rc == ACL_SUCCESS; ++i) event_rc = aclrtRecordEvent(event, stream);
    CHECK(event_rc == ACL_ERROR_RT_STREAM_TASK_FULL);

    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(ledger.copy() == first(accepted));
    // Room again once the stream has drained.
    CHECK_ACL(ledger.launch(stream, accepted));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(ledger.copy().size() == static_cast<std::size_t>(accepted) + 1);
}

namespace {
struct SelfFilling {
    aclrtContext context;
    aclrtStream stream;
    Ledger* ledger;
    int accepted = 0;
    aclError refusal = ACL_SUCCESS;
};

// A host function that enqueues onto its own stream until the runtime refuses.
void fill_own_stream(void* argument) {
    auto* fill = static_cast<SelfFilling*>(argument);
    aclrtSetCurrentContext(fill->context);
    const int capacity = static_cast<int>(fill->ledger->entries.size());
    while (fill->accepted < capacity) {
        const aclError rc = fill->ledger->launch(fill->stream, fill->accepted);
        if (rc != ACL_SUCCESS) {
            fill->refusal = rc;
            return;
        }
        ++fill->accepted;
    }
}
}  // namespace

TEST_CASE("a host function that fills its own stream is refused instead of waiting for itself") {
    ConfigFile config(depth_config("wait"));
    Runtime runtime(config.path());
    Stream stream;
    Ledger ledger(4 * kDepth);
    SelfFilling fill{runtime.context(), stream, &ledger};
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, &fill_own_stream, &fill));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    // Now that the host function has finished, a second synchronize covers what it enqueued.
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(fill.refusal == ACL_ERROR_RT_STREAM_TASK_FULL);
    CHECK(fill.accepted >= kDepth - kSlack);
    CHECK(fill.accepted <= kDepth + kSlack);
    CHECK(ledger.copy() == first(fill.accepted));
}

TEST_CASE("an enqueue onto a stream held by a parked stream fails instead of waiting for ever") {
    ConfigFile config(depth_config("wait"));
    Runtime runtime(config.path());
    Stream stream;
    aclrtNotify notify = nullptr;
    REQUIRE_ACL(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
    // Only this thread's record of the notify can move the stream on.
    REQUIRE_ACL(aclrtWaitAndResetNotify(notify, stream, 0));

    Ledger ledger(4 * kDepth);
    int accepted = 0;
    aclError rc = ACL_SUCCESS;
    while (accepted < 4 * kDepth && (rc = ledger.launch(stream, accepted)) == ACL_SUCCESS) ++accepted;
    CHECK(rc == ACL_ERROR_RT_STREAM_TASK_FULL);
    CHECK(recent_error().find("parked") != std::string::npos);
    CHECK(accepted <= kDepth + kSlack);
    CHECK(ledger.copy().empty());

    Stream recorder;
    REQUIRE_ACL(aclrtRecordNotify(notify, recorder));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(ledger.copy() == first(accepted));
    CHECK_ACL(aclrtDestroyNotify(notify));
}

TEST_CASE("queue_depth and queue_full are checked when aclInit reads them") {
    for (const char* bad : {R"({"canopy": {"queue_depth": 63}})", R"({"canopy": {"queue_depth": "many"}})",
                            R"({"canopy": {"queue_full": "drop"}})", R"({"canopy": {"queue_full": true}})"}) {
        CAPTURE(bad);
        ConfigFile config(bad);
        CHECK_ACL_CODE(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
        aclFinalize();
    }
}
