#include "canopy/engine/device.h"

#include "acl/error_codes/rt_error_codes.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "canopy/engine/capture.h"
#include "canopy/engine/context.h"
#include "canopy/engine/observer.h"
#include "canopy/engine/stream.h"
#include "op_node.h"

namespace canopy::engine {

Device::Device(int id, const RuntimeConfig& config)
    : id_(id),
      config_(config),
      workers_(config.effective_workers()),
      // One slot more than the workers: a host thread that synchronizes joins and helps.
      arena_(workers_ + 1, 1) {
    arena_.execute([this] { graph_ = std::make_unique<oneapi::tbb::flow::graph>(); });
    pool_ = std::make_unique<OpPool>(*graph_);
    primary_ = std::make_unique<Context>(*this);
}

Device::~Device() {
    // A capture left open on the device's streams ends with it (capture.h).
    Capture::abandon(*this, "device " + std::to_string(id()) + " was reset while the capture ran");
    primary_.reset();
    graph_->wait_for_all();
    pool_.reset();
    graph_.reset();
}

void Device::sleep_until_finished(const Stream& stream, const std::atomic<std::uint64_t>& finished,
                                  std::uint64_t target, std::int64_t deadline_ns) {
    std::unique_lock lock(sleep_mutex_);
    Sleeper sleeper{&stream, target, sleeping_};
    sleeping_ = &sleeper;
    // Announced before the count is checked, and the finishing side counts before it looks for
    // sleepers (both sequentially consistent), so one of the two always sees the other.
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (!sleeper.woken && finished.load(std::memory_order_seq_cst) < target) {
        if (deadline_ns < 0) {
            wake_.wait(lock);
        } else if (wake_.wait_for(lock, std::chrono::nanoseconds(deadline_ns - now_ns())) == std::cv_status::timeout) {
            break;
        }
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    Sleeper** link = &sleeping_;
    while (*link != &sleeper) link = &(*link)->next;
    *link = sleeper.next;
}

void Device::wake_matching(const Stream* stream, std::uint64_t finished) {
    bool any = false;
    {
        std::lock_guard lock(sleep_mutex_);
        for (Sleeper* sleeper = sleeping_; sleeper; sleeper = sleeper->next) {
            if (sleeper->stream == stream && sleeper->target <= finished && !sleeper->woken) {
                sleeper->woken = true;
                any = true;
            }
        }
    }
    if (any) wake_.notify_all();
}

void Device::attach(Stream* stream) {
    std::lock_guard lock(streams_mutex_);
    streams_.insert(stream);
    try {
        std::lock_guard live(live_mutex_);
        live_streams_.insert(stream);
    } catch (const std::bad_alloc&) {
        streams_.erase(stream);  // the stream is not constructed: nothing may keep its address
        throw;
    }
    ++streams_per_priority_[stream->priority()];
    update_mixed_priorities();
}

void Device::detach(Stream* stream) {
    std::unique_lock lock(streams_mutex_);
    unpinned_.wait(lock, [&] { return pinned_.count(stream) == 0; });
    streams_.erase(stream);
    {
        std::lock_guard live(live_mutex_);
        live_streams_.erase(stream);
    }
    --streams_per_priority_[stream->priority()];
    update_mixed_priorities();
}

void Device::update_mixed_priorities() {
    int levels = 0;
    for (int count : streams_per_priority_) levels += count > 0;
    mixed_priorities_.store(levels > 1, std::memory_order_relaxed);
}

std::vector<StreamMark> Device::busy_streams() {
    std::vector<StreamMark> marks;
    std::lock_guard lock(live_mutex_);
    for (Stream* stream : live_streams_) {
        const std::uint64_t submitted = stream->submitted_.load(std::memory_order_acquire);
        if (stream->finished_.load(std::memory_order_acquire) < submitted) marks.push_back({id_, stream, submitted});
    }
    return marks;
}

bool Device::reached(const StreamMark& mark) {
    std::lock_guard lock(live_mutex_);
    return reached_locked(mark);
}

bool Device::reached_locked(const StreamMark& mark) const {
    // A stream is destroyed only once its work is done; a new one at the same address only delays.
    auto found = live_streams_.find(const_cast<Stream*>(mark.stream));
    return found == live_streams_.end() || (*found)->finished_.load(std::memory_order_acquire) >= mark.target;
}

bool Device::has_parked_stream() {
    std::lock_guard lock(live_mutex_);
    return std::any_of(live_streams_.begin(), live_streams_.end(), [](const Stream* stream) { return stream->parked(); });
}

std::size_t Device::operation_nodes() { return pool_->size(); }

void Device::wait_queued_work() {
    if (in_stream_work()) return;
    std::vector<StreamMark> marks = busy_streams();
    // Polled under live_mutex_ rather than slept on per stream: a stream may be destroyed while
    // this waits (its destructor drains it first, so a vanished stream has reached its mark), and
    // holding streams_mutex_ the whole time, as synchronize does, would block a host function
    // of the very work waited for that creates or destroys a stream.
    for (int round = 0;; ++round) {
        bool movable = false;
        {
            std::lock_guard lock(live_mutex_);
            marks.erase(std::remove_if(marks.begin(), marks.end(),
                                       [this](const StreamMark& mark) { return reached_locked(mark); }),
                        marks.end());
            for (const StreamMark& mark : marks) movable = movable || !mark.stream->parked();
        }
        if (!movable) return;
        if (round < 64) {
            std::this_thread::yield();
        } else {
            std::this_thread::sleep_for(std::chrono::microseconds(round < 1024 ? 20 : 200));
        }
    }
}

Failure Device::synchronize(std::int32_t timeout_ms) {
    const std::int64_t deadline = timeout_ms < 0 ? -1 : now_ns() + std::int64_t{timeout_ms} * 1'000'000;
    // The streams are waited for one at a time without streams_mutex_ held: the work waited for
    // may create or destroy streams (a host function), which takes that lock. A stream is pinned
    // while it is waited for, so that destroying it waits for the wait instead of freeing it.
    struct Mark {
        Stream* stream;
        int id;  // tells the stream from a later one created at the same address
        std::uint64_t target;
    };
    std::vector<Mark> marks;
    {
        std::lock_guard lock(streams_mutex_);
        for (Stream* stream : streams_)
            marks.push_back({stream, stream->id(), stream->submitted_.load(std::memory_order_acquire)});
    }
    for (const Mark& mark : marks) {
        {
            std::lock_guard lock(streams_mutex_);
            // A stream destroyed meanwhile finished its work first.
            if (!streams_.count(mark.stream) || mark.stream->id() != mark.id) continue;
            ++pinned_[mark.stream];
        }
        const bool finished = mark.stream->wait_finished(mark.target, deadline);
        {
            std::lock_guard lock(streams_mutex_);
            if (--pinned_[mark.stream] == 0) {
                pinned_.erase(mark.stream);
                unpinned_.notify_all();
            }
        }
        if (!finished) {
            return Failure{ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "device " + std::to_string(id_) +
                                                                 " still has unfinished work after " +
                                                                 std::to_string(timeout_ms) + " ms"};
        }
    }
    // Failures are taken only once every stream is done, so a timeout consumes none.
    Failure first;
    std::lock_guard lock(streams_mutex_);
    for (Stream* stream : streams_) {
        Failure failure = stream->take_failure();
        if (failure && !first) first = std::move(failure);
    }
    return first;
}

namespace {
std::atomic<FaultHandler> fault_handler{nullptr};
}

void set_fault_handler(FaultHandler handler) { fault_handler.store(handler, std::memory_order_release); }

void Device::record_fault(const TaskFault& fault) {
    {
        std::lock_guard lock(status_mutex_);
        last_fault_ = fault;
    }
    if (FaultHandler handler = fault_handler.load(std::memory_order_acquire)) handler(fault);
}

TaskFault Device::last_fault() const {
    std::lock_guard lock(status_mutex_);
    return last_fault_;
}

void Device::set_peer_access(int peer, bool enabled) {
    std::lock_guard lock(status_mutex_);
    if (enabled) peers_.insert(peer);
    else peers_.erase(peer);
}

bool Device::peer_access(int peer) const {
    std::lock_guard lock(status_mutex_);
    return peers_.count(peer) != 0;
}

bool Device::reserve_memory(std::size_t bytes) {
    std::size_t used = memory_used_.load(std::memory_order_relaxed);
    do {
        if (bytes > config_.device_memory_bytes - used) return false;
    } while (!memory_used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
}

void Device::release_memory(std::size_t bytes) { memory_used_.fetch_sub(bytes, std::memory_order_relaxed); }

}  // namespace canopy::engine
