#include "canopy/engine/event.h"

#include <chrono>
#include <new>
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/observer.h"
#include "canopy/engine/stream.h"
#include "op_node.h"

namespace canopy::engine {

std::uint32_t Event::next_serial() {
    static std::atomic<std::uint32_t> created{0};
    return created.fetch_add(1, std::memory_order_relaxed) + 1;
}

// Records and waits on a stream with nothing left to do run at once on the calling thread (as their
// nodes would) and need no node: the ping-pong of two streams handing control back and forth then
// costs a few counters per hop. Observed runs keep the nodes, so that a trace draws them and their edges.
bool Event::skips_node(Stream& stream) { return !current_observer() && stream.claim_if_idle(); }

void Event::record(Stream& stream) {
    stream.make_room();
    std::unique_lock<Mutex> lock(mutex_);
    const std::uint64_t sequence = ++sequence_;
    // The claim and the completion are one step under the lock: whatever reads the event, including
    // operations enqueued behind this record that may finish before it is counted, sees it complete.
    // Replays waiting for the event to resume (rare) take the node's way, which may allocate.
    if (resumes_.empty() && skips_node(stream)) {
        recorded_ = sequence;
        record_node_ = nullptr;
        recording_stream_ = &stream;
        mark_finished_locked(sequence);
        lock.unlock();
        wake_sleepers();
        stream.finish_claimed();
        return;
    }
    Operation operation{OpKind::event_record, 0, nullptr,
                        [self = shared_from_this(), sequence](OpRun&) { self->finish_record(sequence); }};
    operation.flow = flow_id(sequence);
    OpNode* node = stream.prepare(std::move(operation));
    recorded_ = sequence;
    record_node_ = node;
    record_generation_ = node->generation();
    recording_stream_ = &stream;
    lock.unlock();
    // A wait registered between the unlock and the submit depends on a node not yet submitted:
    // that is fine, it is released when the node finishes.
    stream.submit(node);
}

std::uint64_t Event::claim_record(const Stream& stream, OpNode* node) {
    Mutex::scoped_lock lock(mutex_);
    const std::uint64_t sequence = ++sequence_;
    recorded_ = sequence;
    record_node_ = node;
    record_generation_ = node->generation();
    recording_stream_ = &stream;
    return sequence;
}

void Event::finish_record(std::uint64_t sequence) {
    std::vector<std::function<void()>> resumes;
    {
        Mutex::scoped_lock lock(mutex_);
        mark_finished_locked(sequence);
        const std::uint64_t finished = finished_.load(std::memory_order_relaxed);
        for (auto it = resumes_.begin(); it != resumes_.end();) {
            if (it->first <= finished) {
                resumes.push_back(std::move(it->second));
                it = resumes_.erase(it);
            } else {
                ++it;
            }
        }
    }
    wake_sleepers();
    for (auto& resume : resumes) resume();
}

void Event::mark_finished_locked(std::uint64_t sequence) {
    if (sequence <= finished_.load(std::memory_order_relaxed)) return;
    if (timed_) timestamp_ns_ = now_ns();
    finished_.store(sequence, std::memory_order_seq_cst);
}

void Event::wake_sleepers() {
    if (sleepers_.load(std::memory_order_seq_cst) != 0) {
        { std::lock_guard lock(sleep_mutex_); }
        woken_.notify_all();
    }
}

std::uint64_t Event::pending_record() const {
    Mutex::scoped_lock lock(mutex_);
    if (recorded_ == 0 || finished_.load(std::memory_order_relaxed) >= recorded_) return 0;
    return recorded_;
}

bool Event::when_finished(std::uint64_t sequence, std::function<void()> resume) {
    Mutex::scoped_lock lock(mutex_);
    if (finished_.load(std::memory_order_relaxed) >= sequence) return false;
    resumes_.emplace_back(sequence, std::move(resume));
    return true;
}

void Event::reset_now() {
    Mutex::scoped_lock lock(mutex_);
    recorded_ = 0;
    record_node_ = nullptr;
}

void Event::wait(Stream& stream) {
    stream.make_room();
    if (pending_record() == 0 && skips_node(stream)) {
        stream.finish_claimed();
        return;
    }
    OpNode* node = stream.prepare(Operation{OpKind::event_wait, 0, nullptr, [](OpRun&) {}});
    try {
        Mutex::scoped_lock lock(mutex_);
        if (recorded_ != 0) node->set_flow(flow_id(recorded_));
        if (recorded_ != 0 && finished_.load(std::memory_order_relaxed) < recorded_) {
            node->add_dependency();
            if (!record_node_->add_successor(node, record_generation_)) node->drop_dependency();
        }
    } catch (const std::bad_alloc&) {
        node->discard();  // never registered: nothing refers to it
        throw;
    }
    stream.submit(node);
}

void Event::reset(Stream& stream) {
    std::uint64_t sequence;
    {
        Mutex::scoped_lock lock(mutex_);
        sequence = sequence_;
    }
    stream.enqueue(Operation{OpKind::event_reset, 0, nullptr, [self = shared_from_this(), sequence](OpRun&) {
                                 Mutex::scoped_lock lock(self->mutex_);
                                 // A record made after the reset was enqueued stands.
                                 if (self->recorded_ <= sequence) {
                                     self->recorded_ = 0;
                                     self->record_node_ = nullptr;
                                 }
                             }});
}

bool Event::recorded() const {
    Mutex::scoped_lock lock(mutex_);
    return recorded_ != 0;
}

bool Event::complete() const {
    Mutex::scoped_lock lock(mutex_);
    return recorded_ != 0 && finished_.load(std::memory_order_acquire) >= recorded_;
}

Failure Event::synchronize(std::int32_t timeout_ms) {
    std::uint64_t target;
    const Stream* recording = nullptr;
    {
        Mutex::scoped_lock lock(mutex_);
        target = recorded_;
        if (target != 0 && finished_.load(std::memory_order_relaxed) < target) recording = recording_stream_;
    }
    if (target == 0) return {};
    // The pending record is behind the host function or callback this thread runs on its stream.
    if (recording && runs_work_of(*recording)) {
        return Failure{ACL_ERROR_RT_NO_PERMISSION,
                       "cannot synchronize an event from a host function or callback running on the stream that "
                       "records it: it would wait for itself"};
    }
    auto reached = [&] { return finished_.load(std::memory_order_seq_cst) >= target; };
    // A short spin (tens of microseconds) catches records about to run before sleeping.
    for (int spin = 0; spin < 64 && !reached(); ++spin) std::this_thread::yield();
    std::unique_lock lock(sleep_mutex_);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    bool done = true;
    if (timeout_ms < 0) {
        woken_.wait(lock, reached);
    } else {
        done = woken_.wait_for(lock, std::chrono::milliseconds(timeout_ms), reached);
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    if (!done) {
        return Failure{ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                       "event not complete after " + std::to_string(timeout_ms) + " ms"};
    }
    return {};
}

bool Event::timestamp_ns(std::int64_t& out) const {
    Mutex::scoped_lock lock(mutex_);
    if (recorded_ == 0 || finished_.load(std::memory_order_relaxed) < recorded_) return false;
    out = timestamp_ns_;
    return true;
}

}  // namespace canopy::engine
