#pragma once
// A stream is an ordered chain of operation nodes in its device's tbb::flow graph. Every operation
// depends on the one enqueued before it on the same stream and, through event waits, on operations
// of other streams; it runs as soon as those have finished.
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string_view>

#include <oneapi/tbb/spin_mutex.h>

#include "canopy/engine/failure.h"
#include "canopy/engine/operation.h"
#include "canopy/engine/task_recorder.h"

namespace canopy::engine {

class Context;
class Device;

enum class FailureMode { continue_on_failure = 0, stop_on_failure = 1 };
// What float results do on overflow: clamp to the largest finite value, or follow IEEE (inf / NaN).
enum class FloatMode { saturation = 0, inf_nan = 1 };

// The task id of the operation the calling thread enqueued last, on any stream (0 if none).
std::uint64_t last_task_id();

class Stream;

// Whether the calling thread is running a stream's work now: an operation (a host function, say)
// or a callback handed to a subscribed thread. Such a thread must not wait for streams to drain.
bool in_stream_work();
// Whether the calling thread is running work of `stream` (of any stream of `device`), directly or
// beneath other stream work it runs inline: waiting for that stream (that device) to drain would
// wait for the caller itself.
bool runs_work_of(const Stream& stream);
bool runs_work_of(const Device& device);
// Marks the calling thread as running the work of `stream`, a stream of `device`, while it lives.
// Scopes nest (a thread that synchronizes may run ready operations of the stream it waits for
// inside a host function). The stream is never dereferenced: a non-blocking callback's stream may
// be destroyed while the callback runs.
class StreamWorkScope {
public:
    StreamWorkScope(const Stream& stream, const Device& device);
    ~StreamWorkScope();
    StreamWorkScope(const StreamWorkScope&) = delete;
    StreamWorkScope& operator=(const StreamWorkScope&) = delete;

private:
    friend bool in_stream_work();
    friend bool runs_work_of(const Stream&);
    friend bool runs_work_of(const Device&);
    const Stream* stream_;
    const Device* device_;
    const StreamWorkScope* outer_;
};

// Which kind of core a resource limit counts.
enum class CoreKind { cube = 0, vector = 1 };

class Stream {
public:
    static constexpr int greatest_priority = 0;
    static constexpr int least_priority = 7;

    // priority is clamped into [greatest_priority, least_priority].
    Stream(Context& context, int priority, std::uint32_t flags);
    // Waits for the stream's pending work.
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Context& context() const { return context_; }
    Device& device() const;
    int priority() const { return priority_; }
    std::uint32_t flags() const { return flags_; }
    // Unique among the device's live and past streams (aclrtStreamGetId).
    int id() const { return id_; }
    void set_failure_mode(FailureMode mode) { failure_mode_.store(mode, std::memory_order_relaxed); }
    // The device's float mode when the stream was created (new streams follow aclrtSetDeviceSatMode).
    FloatMode float_mode() const { return float_mode_; }
    // Kernels of this stream record IEEE overflow, invalid and divide-by-zero flags on the device.
    void set_overflow_detection(bool on) { overflow_detection_.store(on, std::memory_order_relaxed); }
    bool overflow_detection() const { return overflow_detection_.load(std::memory_order_relaxed); }
    // aclrtSetStreamResLimit: the stream's own cap on the cores of a kind its launches use at once
    // (0: none, the device's applies). Read when a launch is enqueued.
    void set_core_limit(CoreKind kind, std::uint32_t cores) {
        core_limits_[static_cast<int>(kind)].store(cores, std::memory_order_relaxed);
    }
    std::uint32_t core_limit(CoreKind kind) const {
        return core_limits_[static_cast<int>(kind)].load(std::memory_order_relaxed);
    }
    // Whether the operation at the head of the stream has deferred its completion (a notify or
    // value wait parked until a signal, a blocking callback waiting for its subscriber): the
    // stream then moves on only when something outside its queued work acts.
    bool parked() const { return deferred_.load(std::memory_order_acquire) != 0; }

    // Task ids count the stream's operations from 1 in the order of submission. When the stream
    // holds config().queue_depth queued operations, enqueue first waits for room; it throws
    // OperationError(ACL_ERROR_RT_STREAM_TASK_FULL) instead when the configuration says so, on a
    // thread running stream work (which may be what the stream waits for), and when a parked
    // stream of the device keeps it from draining.
    void enqueue(Operation operation);
    // The queue depth is checked at task ids that are multiples of this: one load on the
    // submitter's own cache line per operation, the workers' counter only every 64th.
    static constexpr std::uint64_t room_check_interval = 64;
    // While a recorder is set, enqueue hands operations to it instead of running them
    // (task_recorder.h); nullptr runs them again.
    void set_recorder(TaskRecorder* recorder) { recorder_.store(recorder, std::memory_order_release); }
    TaskRecorder* recorder() const { return recorder_.load(std::memory_order_acquire); }
    // The stream is being destroyed: its recorder, if any, forgets it (a model unbinds it, a
    // capture loses it, a task group update is dropped) and it records no more.
    void release_recorder() {
        if (TaskRecorder* recording = recorder()) recording->detach(*this);
    }

    // Blocks until every operation enqueued so far has finished. Meanwhile the calling thread runs
    // the stream's own ready operations that no worker has taken yet (it would wait for them
    // anyway), spins briefly, then sleeps. It never runs another stream's work: a host function
    // there may be waiting for this very thread, or outlast the stream being waited for.
    // Returns (and clears) the first failure of an operation since the last synchronize.
    Failure synchronize();
    // timeout_ms -1 waits forever, 0 only checks; on expiry returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
    Failure synchronize(std::int32_t timeout_ms);
    bool idle() const;

    // aclrtStreamStop: the operation running now (if any) starts no further blocks and fails with
    // ACL_ERROR_RT_STREAM_ABORT; a block already running finishes, since a CPU thread cannot be
    // preempted. Returns once that operation has ended; later operations run as usual.
    void stop();
    // aclrtStreamAbort: stops the running operation, drops every operation not yet started
    // (event nodes still run, so that other streams do not wait for ever) and leaves
    // ACL_ERROR_RT_STREAM_ABORT, naming the number dropped, for the next synchronize.
    // Returns the number of operations dropped.
    std::uint64_t abort();
    // Whether the running operation `task` has been asked to stop (checked between kernel blocks).
    bool stop_requested(std::uint64_t task) const {
        return stop_task_.load(std::memory_order_relaxed) == task;
    }

private:
    friend class CapturedGraph;
    friend class Device;
    friend class OpNode;
    friend class Event;
    friend class Context;

    // Called before prepare by everything that submits (see enqueue).
    void make_room() {
        if (((submitted_.load(std::memory_order_relaxed) + 1) & (room_check_interval - 1)) == 0) wait_for_room();
    }
    void wait_for_room();
    // Enqueues an operation without a node when every operation enqueued before it has finished:
    // an event record or wait with nothing to wait for, which the caller then does on its own
    // thread and ends with finish_claimed(). False, with nothing done, when the stream has
    // unfinished work. An operation enqueued after the claimed one may finish before it, so the
    // claimed work must be invisible until complete (an event's, done under the event's lock).
    bool claim_if_idle();
    void finish_claimed() { on_finished(); }
    OpNode* prepare(Operation&& operation);
    void submit(OpNode* node);
    void on_finished();
    // Never throws, since it runs where a failure cannot be reported (a worker, a deferred
    // completion): when memory is exhausted the failure keeps its code and says only that.
    void record_failure(int code, const std::string& message) noexcept;
    // A failed operation: recorded on the stream and on the device (aclrtGetErrorVerbose), and
    // reported to the process's fault handler (exception callbacks). The message is the parts joined.
    // Never throws: without memory the stream still gets the code, and the device's report is skipped.
    void fail_task(std::uint64_t task, const Operation& operation, int code,
                   std::initializer_list<std::string_view> message_parts) noexcept;
    bool skips_work(OpKind kind) const;
    Failure take_failure();
    // Offers a ready node to a synchronizing thread of this stream (see OpNode::claim).
    void offer(OpNode* node) { offered_.store(node, std::memory_order_release); }
    // False if the deadline (steady clock ns, -1 for none) passed first.
    bool wait_finished(std::uint64_t target, std::int64_t deadline_ns);

    Context& context_;
    const int priority_;
    const std::uint32_t flags_;
    const int id_;
    const FloatMode float_mode_;
    std::atomic<FailureMode> failure_mode_{FailureMode::continue_on_failure};
    std::atomic<bool> overflow_detection_{false};
    std::atomic<std::uint32_t> core_limits_[2] = {};
    std::atomic<int> deferred_{0};  // operations whose completion is deferred and still pending
    std::atomic<bool> aborting_{false};
    mutable std::atomic<std::uint64_t> dropped_{0};  // operations skipped by the abort in progress
    std::atomic<std::uint64_t> running_task_{0};     // the operation whose work runs now, 0 if none
    std::atomic<std::uint64_t> stop_task_{0};

    // The submitting threads' and the workers' counters live on separate cache lines.
    std::atomic<TaskRecorder*> recorder_{nullptr};
    // The next stream in its context's list of retired streams (Context::retire).
    std::shared_ptr<Stream> next_retired_;

    // Taking a task id and becoming the tail are one step, so that task ids follow stream order
    // when several threads enqueue on the stream; one lock costs less than the two atomic
    // operations it replaces.
    alignas(64) oneapi::tbb::spin_mutex submit_mutex_;
    std::atomic<OpNode*> tail_{nullptr};
    std::atomic<std::uint64_t> submitted_{0};
    alignas(64) std::atomic<std::uint64_t> finished_{0};
    std::atomic<OpNode*> offered_{nullptr};  // the node most recently made ready

    std::atomic<bool> failed_{false};
    std::mutex failure_mutex_;
    Failure failure_;
};

}  // namespace canopy::engine
