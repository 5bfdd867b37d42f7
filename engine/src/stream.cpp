#include "canopy/engine/stream.h"

#include <algorithm>
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "canopy/engine/log.h"
#include "op_node.h"

namespace canopy::engine {

namespace {
void pause_cpu() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

// What a failure says when there is no memory to describe it: short enough to need none itself
// (std::string keeps up to 15 characters in place).
constexpr const char* out_of_memory_text = "(out of memory)";

std::int64_t deadline_after(std::int32_t timeout_ms) {
    return timeout_ms < 0 ? -1 : now_ns() + std::int64_t{timeout_ms} * 1'000'000;
}

// Initial-exec TLS, read on every operation (see kernels/src/block.cpp).
__attribute__((tls_model("initial-exec"))) thread_local std::uint64_t thread_last_task = 0;
__attribute__((tls_model("initial-exec"))) thread_local const StreamWorkScope* innermost_work = nullptr;
}  // namespace

std::uint64_t last_task_id() { return thread_last_task; }

bool in_stream_work() { return innermost_work != nullptr; }

bool runs_work_of(const Stream& stream) {
    for (const StreamWorkScope* scope = innermost_work; scope; scope = scope->outer_) {
        if (scope->stream_ == &stream) return true;
    }
    return false;
}

bool runs_work_of(const Device& device) {
    for (const StreamWorkScope* scope = innermost_work; scope; scope = scope->outer_) {
        if (scope->device_ == &device) return true;
    }
    return false;
}

StreamWorkScope::StreamWorkScope(const Stream& stream, const Device& device)
    : stream_(&stream), device_(&device), outer_(innermost_work) {
    innermost_work = this;
}
StreamWorkScope::~StreamWorkScope() { innermost_work = outer_; }

Stream::Stream(Context& context, int priority, std::uint32_t flags)
    : context_(context),
      priority_(std::clamp(priority, greatest_priority, least_priority)),
      flags_(flags),
      id_(context.device().next_stream_id()),
      float_mode_(context.device().float_mode()) {
    device().attach(this);
}

Stream::~Stream() {
    synchronize();
    if (OpNode* tail = tail_.exchange(nullptr)) tail->release_tail();
    device().detach(this);
}

Device& Stream::device() const { return context_.device(); }

OpNode* Stream::prepare(Operation&& operation) {
    OpNode* node = device().pool().acquire(priority_, device().mixed_priorities());
    node->prepare(*this, std::move(operation));
    return node;
}

void Stream::submit(OpNode* node) {
    OpNode* previous;
    std::uint64_t task;
    {
        oneapi::tbb::spin_mutex::scoped_lock lock(submit_mutex_);
        task = submitted_.load(std::memory_order_relaxed) + 1;
        submitted_.store(task, std::memory_order_release);
        previous = tail_.load(std::memory_order_relaxed);
        tail_.store(node, std::memory_order_relaxed);
    }
    node->set_task_id(task);
    thread_last_task = task;
    // The node was prepared with a dependency on its predecessor already counted (it may finish
    // and release it at once).
    const bool linked = previous && previous->chain(node);
    node->release_submission(linked);
}

bool Stream::claim_if_idle() {
    if (finished_.load(std::memory_order_relaxed) != submitted_.load(std::memory_order_relaxed)) return false;
    oneapi::tbb::spin_mutex::scoped_lock lock(submit_mutex_);
    const std::uint64_t submitted = submitted_.load(std::memory_order_relaxed);
    if (finished_.load(std::memory_order_acquire) != submitted) return false;
    submitted_.store(submitted + 1, std::memory_order_release);
    thread_last_task = submitted + 1;
    return true;
}

void Stream::enqueue(Operation operation) {
    if (TaskRecorder* recording = recorder()) {
        recording->record(std::move(operation));
        return;
    }
    make_room();
    submit(prepare(std::move(operation)));
}

void Stream::wait_for_room() {
    const RuntimeConfig& config = device().config();
    const std::uint64_t next = submitted_.load(std::memory_order_relaxed) + 1;
    if (next <= config.queue_depth) return;
    const std::uint64_t room_at = next - config.queue_depth;  // finished operations that leave room
    if (finished_.load(std::memory_order_acquire) >= room_at) return;
    auto full = [&](const char* why) {
        return OperationError(ACL_ERROR_RT_STREAM_TASK_FULL, "stream " + std::to_string(id_) + " holds " +
                                                                 std::to_string(config.queue_depth) +
                                                                 " queued operations (canopy.queue_depth)" + why);
    };
    if (config.queue_full_fails) throw full(" and canopy.queue_full is \"fail\"");
    if (in_stream_work()) throw full(": a host function or callback cannot wait for room, its own stream may be what this one waits for");
    // Re-checked while waiting: a parked stream moves on only when the program acts, and the
    // program may be this very thread.
    constexpr std::int32_t recheck_ms = 10;
    while (!wait_finished(room_at, deadline_after(recheck_ms))) {
        if (device().has_parked_stream()) {
            throw full(": a stream of the device is parked on a notify, a value wait or a blocking callback that only the program can move on");
        }
    }
}

void Stream::on_finished() {
    Device& device = this->device();
    const std::uint64_t done = finished_.fetch_add(1, std::memory_order_seq_cst) + 1;
    // The stream may be destroyed from here on: it is only named, not touched.
    device.wake_stream_waiters(this, done);
}

bool Stream::idle() const {
    return finished_.load(std::memory_order_acquire) >= submitted_.load(std::memory_order_acquire);
}

bool Stream::skips_work(OpKind kind) const {
    // Event nodes always run, so that events complete and waiting streams go on.
    if (kind == OpKind::event_record || kind == OpKind::event_wait || kind == OpKind::event_reset) return false;
    if (aborting_.load(std::memory_order_acquire)) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    return failure_mode_.load(std::memory_order_relaxed) == FailureMode::stop_on_failure &&
           failed_.load(std::memory_order_acquire);
}

void Stream::fail_task(std::uint64_t task, const Operation& operation, int code,
                       std::initializer_list<std::string_view> message_parts) noexcept {
    std::string message;
    try {
        for (std::string_view part : message_parts) message.append(part);
    } catch (const std::bad_alloc&) {
        message = out_of_memory_text;
    }
    record_failure(code, message);
    // Stopping and aborting are the program's own doing, not a fault of the task.
    if (code == ACL_ERROR_RT_STREAM_ABORT) return;
    try {
        device().record_fault(TaskFault{device().id(), id_, task, code, message, operation.kind, operation.name,
                                        operation.symbol});
    } catch (const std::bad_alloc&) {
        // The device's last-fault record and the exception callbacks need memory; the stream's
        // failure, which the program's next synchronize returns, is kept.
    }
}

void Stream::record_failure(int code, const std::string& message) noexcept {
    {
        std::lock_guard lock(failure_mutex_);
        failed_.store(true, std::memory_order_release);
        // Later failures of the same run are consequences of the first: only it is reported.
        if (failure_) return;
        failure_.code = code;
        try {
            failure_.message = message;
        } catch (const std::bad_alloc&) {
            failure_.message = out_of_memory_text;
        }
    }
    if (code == ACL_ERROR_RT_STREAM_ABORT) return;
    try {
        log_error(message + " (error " + std::to_string(code) + ")");
    } catch (const std::bad_alloc&) {
    }
}

Failure Stream::take_failure() {
    if (!failed_.load(std::memory_order_acquire)) return {};
    std::lock_guard lock(failure_mutex_);
    failed_.store(false, std::memory_order_relaxed);
    return std::exchange(failure_, Failure{});
}

Failure Stream::synchronize() {
    wait_finished(submitted_.load(std::memory_order_acquire), -1);
    return take_failure();
}

Failure Stream::synchronize(std::int32_t timeout_ms) {
    if (timeout_ms < 0) return synchronize();
    if (!wait_finished(submitted_.load(std::memory_order_acquire), deadline_after(timeout_ms))) {
        return Failure{ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                       "stream still has unfinished work after " + std::to_string(timeout_ms) + " ms"};
    }
    return take_failure();
}

bool Stream::wait_finished(std::uint64_t target, std::int64_t deadline_ns) {
    // Spinning costs less than the ~40 us a futex wake-up takes on the VMs this runs on, for work
    // that is about to finish; the spin is bounded, and only runs while the stream has work.
    constexpr int spin_rounds = 4096;
    int idle_rounds = 0;
    // Only an untimed wait helps: the work it would take on may outlast a deadline.
    const bool helps = deadline_ns < 0;
    while (finished_.load(std::memory_order_acquire) < target) {
        OpNode* offered = helps ? offered_.load(std::memory_order_acquire) : nullptr;
        if (offered && offered->claim(*this)) {
            auto keep_going = [&] { return finished_.load(std::memory_order_relaxed) < target; };
            // Copies and kernels split their work with parallel_for: inside the device's arena
            // its workers share it; outside, this thread would be nearly alone.
            if (offered->splits_work()) {
                device().arena().execute([&] { offered->run_claimed(keep_going); });
            } else {
                offered->run_claimed(keep_going);
            }
            idle_rounds = 0;
            continue;
        }
        if (++idle_rounds < spin_rounds) {
            pause_cpu();
            continue;
        }
        if (deadline_ns >= 0 && now_ns() >= deadline_ns) return false;
        device().sleep_until_finished(*this, finished_, target, deadline_ns);
        idle_rounds = 0;
    }
    return true;
}

void Stream::stop() {
    const std::uint64_t task = running_task_.load(std::memory_order_acquire);
    if (task == 0) return;
    stop_task_.store(task, std::memory_order_relaxed);
    // Operations run in task order, so `task` has ended once that many have finished.
    wait_finished(task, -1);
    stop_task_.store(0, std::memory_order_relaxed);
}

std::uint64_t Stream::abort() {
    dropped_.store(0, std::memory_order_relaxed);
    aborting_.store(true, std::memory_order_release);
    const std::uint64_t running = running_task_.load(std::memory_order_acquire);
    if (running != 0) stop_task_.store(running, std::memory_order_relaxed);
    wait_finished(submitted_.load(std::memory_order_acquire), -1);
    aborting_.store(false, std::memory_order_release);
    stop_task_.store(0, std::memory_order_relaxed);
    const std::uint64_t dropped = dropped_.load(std::memory_order_relaxed);
    {
        // The abort is what the next synchronize reports, whatever failed before it.
        std::lock_guard lock(failure_mutex_);
        failure_ = Failure{ACL_ERROR_RT_STREAM_ABORT, "stream " + std::to_string(id_) + " was aborted (aclrtStreamAbort): " +
                                                          std::to_string(dropped) + " queued operation(s) dropped"};
        failed_.store(true, std::memory_order_release);
    }
    return dropped;
}

}  // namespace canopy::engine
