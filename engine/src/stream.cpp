#include "canopy/engine/stream.h"

#include <algorithm>
#include <thread>

#include "acl/acl_base.h"
#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "op_node.h"

namespace canopy::engine {

namespace {
std::int64_t deadline_after(std::int32_t timeout_ms) {
    return timeout_ms < 0 ? -1 : now_ns() + std::int64_t{timeout_ms} * 1'000'000;
}
}  // namespace

Stream::Stream(Context& context, int priority, std::uint32_t flags)
    : context_(context),
      priority_(std::clamp(priority, greatest_priority, least_priority)),
      flags_(flags),
      wait_context_(oneapi::tbb::task_group_context::bound,
                    oneapi::tbb::task_group_context::default_traits |
                        oneapi::tbb::task_group_context::concurrent_wait) {
    // The graph attaches to the arena it is built in: build it in the device's, so that a
    // synchronizing thread helps run the device's work.
    device().arena().execute([this] { waiter_ = std::make_unique<oneapi::tbb::flow::graph>(wait_context_); });
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
    submitted_.fetch_add(1, std::memory_order_release);
    // Stream order is the order in which submitters swap the tail. The node was prepared with a
    // dependency on its predecessor already counted (it may finish and release it at once).
    OpNode* previous = tail_.exchange(node, std::memory_order_acq_rel);
    const bool linked = previous && previous->chain(node);
    node->release_submission(linked);
}

void Stream::enqueue(Operation operation) { submit(prepare(std::move(operation))); }

void Stream::on_finished() {
    Device& device = this->device();
    const std::uint64_t done = finished_.fetch_add(1, std::memory_order_seq_cst) + 1;
    // The stream may be destroyed from here on: it is only named, not touched.
    device.wake_helping_waiters(this, done);
}

bool Stream::idle() const {
    return finished_.load(std::memory_order_acquire) >= submitted_.load(std::memory_order_acquire);
}

bool Stream::skips_work(OpKind kind) const {
    // Event nodes always run, so that events complete and waiting streams go on.
    if (kind == OpKind::event_record || kind == OpKind::event_wait || kind == OpKind::event_reset) return false;
    return discarding_.load(std::memory_order_relaxed) ||
           (failure_mode_.load(std::memory_order_relaxed) == FailureMode::stop_on_failure &&
            failed_.load(std::memory_order_acquire));
}

void Stream::record_failure(int code, const std::string& message) {
    std::lock_guard lock(failure_mutex_);
    if (!failure_) failure_ = Failure{code, message};
    failed_.store(true, std::memory_order_release);
}

Failure Stream::take_failure() {
    if (!failed_.load(std::memory_order_acquire)) return {};
    std::lock_guard lock(failure_mutex_);
    failed_.store(false, std::memory_order_relaxed);
    return std::exchange(failure_, Failure{});
}

Failure Stream::synchronize() {
    const std::uint64_t target = submitted_.load(std::memory_order_acquire);
    if (finished_.load(std::memory_order_acquire) < target) {
        std::unique_lock helping(waiter_mutex_, std::try_to_lock);
        if (helping) {
            wait_helping(target);
        } else {
            wait_blocking(-1, target);
        }
    }
    return take_failure();
}

void Stream::wait_helping(std::uint64_t target) {
    Device::HelpingWaiter waiter{this, target, waiter_.get()};
    waiter_->reserve_wait();
    device().add_helping_waiter(waiter);
    // The operation reaching the target may have finished before it could see the waiter.
    if (finished_.load(std::memory_order_seq_cst) >= target) device().release_helping_waiter(waiter);
    waiter_->wait_for_all();
    device().remove_helping_waiter(waiter);
    // Pairs with the finishing worker's increment, for what its operation wrote.
    finished_.load(std::memory_order_acquire);
}

Failure Stream::synchronize(std::int32_t timeout_ms) {
    if (timeout_ms < 0) return synchronize();
    const std::uint64_t target = submitted_.load(std::memory_order_acquire);
    if (!wait_blocking(deadline_after(timeout_ms), target)) {
        return Failure{ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                       "stream still has unfinished work after " + std::to_string(timeout_ms) + " ms"};
    }
    return take_failure();
}

bool Stream::wait_blocking(std::int64_t deadline_ns, std::uint64_t target) {
    return device().notifier().wait_until(
        [&] { return finished_.load(std::memory_order_seq_cst) >= target; }, deadline_ns);
}

void Stream::discard_pending() {
    discarding_.store(true, std::memory_order_relaxed);
    synchronize();
    discarding_.store(false, std::memory_order_relaxed);
}

}  // namespace canopy::engine
