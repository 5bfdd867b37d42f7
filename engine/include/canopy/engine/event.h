#pragma once
// An event marks a point in a stream. record() enqueues a node that completes the event when
// everything enqueued on the stream before it has finished; wait() makes the next operations of
// another stream depend on that node: a cross-stream edge of the graph.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <oneapi/tbb/spin_mutex.h>

#include "canopy/engine/failure.h"

namespace canopy::engine {

class Device;
class OpNode;
class Stream;

class Event : public std::enable_shared_from_this<Event> {
public:
    // An untimed event (CANN's events created without ACL_EVENT_TIME_LINE) reads no clock when
    // its record runs, which is a good part of a cross-stream hop's cost.
    explicit Event(Device& device, std::uint32_t flags = 0, bool timed = true)
        : device_(device), flags_(flags), timed_(timed), serial_(next_serial()) {}
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    Device& device() const { return device_; }
    std::uint32_t flags() const { return flags_; }
    bool timed() const { return timed_; }

    // Pending records and resets keep the event alive (it must be owned by a shared_ptr). On a
    // stream with nothing unfinished the record completes before this returns.
    void record(Stream& stream);
    // Later work on `stream` waits for the most recent record made before this call; a no-op when
    // the event was never recorded or its record has finished (then without a node if the stream
    // has nothing unfinished).
    void wait(Stream& stream);
    // Enqueues a node that returns the event to the never-recorded state.
    void reset(Stream& stream);
    // Returns the event to the never-recorded state now (a reset replayed by a captured graph).
    void reset_now();
    // What a wait made now would wait for, as aclrtStreamWaitEvent decides it: the sequence of the
    // most recent record, or 0 when the event was never recorded (or was reset) or that record has
    // run already. A captured graph binds its external waits this way when a replay is enqueued.
    std::uint64_t pending_record() const;
    // Whether record `sequence` (or a later one) has run.
    bool finished(std::uint64_t sequence) const { return finished_.load(std::memory_order_acquire) >= sequence; }
    // Calls `resume` once record `sequence` (or a later one) has run. False (and `resume` not
    // kept) when it has run already.
    bool when_finished(std::uint64_t sequence, std::function<void()> resume);

    bool recorded() const;
    bool complete() const;  // recorded and its record has run
    // Blocks until the most recent record has run; timeout_ms as Stream::synchronize, expiry gives
    // ACL_ERROR_RT_EVENT_SYNC_TIMEOUT.
    Failure synchronize(std::int32_t timeout_ms);
    // Steady-clock time at which the most recent record ran, if complete (0 if untimed).
    bool timestamp_ns(std::int64_t& out) const;

    // Names record number `sequence` of this event across the process (Operation::flow): the
    // event's serial number in the high 32 bits, so that a destroyed event's records and those of
    // a new event at the same address stay distinct.
    std::uint64_t flow_id(std::uint64_t sequence) const {
        return (std::uint64_t{serial_} << 32) | (sequence & 0xffffffffu);
    }

private:
    friend class CapturedGraph;
    static std::uint32_t next_serial();
    // Makes `node`, an operation prepared on `stream` and not yet submitted, the event's most
    // recent record; it completes the record with finish_record(the returned sequence).
    std::uint64_t claim_record(const Stream& stream, OpNode* node);
    void finish_record(std::uint64_t sequence);
    // Under mutex_: record `sequence` has run.
    void mark_finished_locked(std::uint64_t sequence);
    void wake_sleepers();
    // Whether a record or wait made now should skip its node (see Stream::claim_if_idle).
    static bool skips_node(Stream& stream);

    Device& device_;
    const std::uint32_t flags_;
    const bool timed_;
    const std::uint32_t serial_;  // counts the events created in the process, from 1
    // Held for a few stores at a time, on every record and wait: a spin lock.
    using Mutex = oneapi::tbb::spin_mutex;
    mutable Mutex mutex_;
    std::uint64_t sequence_ = 0;        // records ever made; never goes back, so stale records stay stale
    std::uint64_t recorded_ = 0;        // sequence of the most recent record (0: never recorded or reset)
    OpNode* record_node_ = nullptr;     // its node, valid while node generation matches
    std::uint32_t record_generation_ = 0;
    const Stream* recording_stream_ = nullptr;  // of the most recent record (alive while it is pending)
    std::atomic<std::uint64_t> finished_{0};  // sequence of the most recent record that has run
    std::int64_t timestamp_ns_ = 0;
    std::vector<std::pair<std::uint64_t, std::function<void()>>> resumes_;  // when_finished's

    // Threads in synchronize() sleep here; a record that runs wakes them only if there are any.
    std::atomic<int> sleepers_{0};
    std::mutex sleep_mutex_;
    std::condition_variable woken_;
};

}  // namespace canopy::engine
