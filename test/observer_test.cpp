// The engine's observation hook: with an observer installed every operation reports its kind,
// stream, size and start and end times; without one nothing is reported. Uses the engine directly
// (its symbols are not exported by libascendcl).
#include <doctest/doctest.h>

#include <mutex>
#include <vector>

#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "canopy/engine/event.h"
#include "canopy/engine/observer.h"
#include "canopy/engine/stream.h"

using namespace canopy::engine;

namespace {
class Recorder : public Observer {
public:
    void on_operation(const OpRecord& record) override {
        std::lock_guard lock(mutex_);
        records_.push_back(record);
    }
    std::vector<OpRecord> records() {
        std::lock_guard lock(mutex_);
        return records_;
    }

private:
    std::mutex mutex_;
    std::vector<OpRecord> records_;
};

Operation host_work(std::uint64_t bytes) {
    return Operation{OpKind::memset, bytes, nullptr, [](OpRun&) {}};
}
}  // namespace

TEST_CASE("an installed observer sees every operation with its stream, size and times") {
    RuntimeConfig config;
    Device device(0, config);
    Stream stream(device.primary_context(), 0, 0);
    Recorder recorder;
    set_observer(&recorder);
    stream.enqueue(host_work(64));
    auto event = std::make_shared<Event>(device);
    event->record(stream);
    stream.enqueue(Operation{OpKind::kernel, 8, "named_kernel", [](OpRun&) {}});
    CHECK_FALSE(stream.synchronize());
    set_observer(nullptr);

    const auto records = recorder.records();
    REQUIRE(records.size() == 3);
    CHECK(records[0].kind == OpKind::memset);
    CHECK(records[0].bytes == 64);
    CHECK(records[1].kind == OpKind::event_record);
    CHECK(records[2].kind == OpKind::kernel);
    CHECK(std::string(records[2].name) == "named_kernel");
    for (const OpRecord& record : records) {
        CHECK(record.stream == &stream);
        CHECK(record.begin_ns <= record.end_ns);
    }
    // Stream order shows in the times.
    CHECK(records[0].end_ns <= records[1].begin_ns);
    CHECK(records[1].end_ns <= records[2].begin_ns);
}

TEST_CASE("without an observer nothing is reported") {
    RuntimeConfig config;
    Device device(0, config);
    Stream stream(device.primary_context(), 0, 0);
    Recorder recorder;
    set_observer(&recorder);
    set_observer(nullptr);
    stream.enqueue(host_work(1));
    CHECK_FALSE(stream.synchronize());
    CHECK(recorder.records().empty());
}
