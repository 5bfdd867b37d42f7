#include "canopy/engine/device.h"

#include "acl/acl_base.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "canopy/engine/context.h"
#include "canopy/engine/observer.h"
#include "canopy/engine/stream.h"
#include "op_node.h"

namespace canopy::engine {

void Notifier::notify() {
    if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
    { std::lock_guard lock(mutex_); }
    cv_.notify_all();
}

bool Notifier::wait_once(std::unique_lock<std::mutex>& lock, std::int64_t deadline_ns) {
    if (deadline_ns < 0) {
        cv_.wait(lock);
        return true;
    }
    const std::int64_t left = deadline_ns - now_ns();
    if (left <= 0) return false;
    cv_.wait_for(lock, std::chrono::nanoseconds(left));
    return true;
}

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
    primary_.reset();
    graph_->wait_for_all();
    pool_.reset();
    graph_.reset();
}

void Device::add_helping_waiter(HelpingWaiter& waiter) {
    std::lock_guard lock(helping_mutex_);
    helping_.push_back(&waiter);
    helping_waiters_.fetch_add(1, std::memory_order_seq_cst);
}

void Device::release_helping_waiter(HelpingWaiter& waiter) {
    std::lock_guard lock(helping_mutex_);
    if (waiter.released) return;
    waiter.released = true;
    waiter.graph->release_wait();
}

void Device::remove_helping_waiter(HelpingWaiter& waiter) {
    std::lock_guard lock(helping_mutex_);
    helping_.erase(std::find(helping_.begin(), helping_.end(), &waiter));
    helping_waiters_.fetch_sub(1, std::memory_order_relaxed);
}

void Device::wake_matching(const Stream* stream, std::uint64_t finished) {
    std::lock_guard lock(helping_mutex_);
    for (HelpingWaiter* waiter : helping_) {
        if (waiter->stream == stream && !waiter->released && waiter->target <= finished) {
            waiter->released = true;
            waiter->graph->release_wait();
        }
    }
}

void Device::attach(Stream* stream) {
    std::lock_guard lock(streams_mutex_);
    streams_.insert(stream);
    ++streams_per_priority_[stream->priority()];
    update_mixed_priorities();
}

void Device::detach(Stream* stream) {
    std::lock_guard lock(streams_mutex_);
    streams_.erase(stream);
    --streams_per_priority_[stream->priority()];
    update_mixed_priorities();
}

void Device::update_mixed_priorities() {
    int levels = 0;
    for (int count : streams_per_priority_) levels += count > 0;
    mixed_priorities_.store(levels > 1, std::memory_order_relaxed);
}

Failure Device::synchronize(std::int32_t timeout_ms) {
    std::lock_guard lock(streams_mutex_);
    if (timeout_ms >= 0) {
        const std::int64_t deadline = now_ns() + std::int64_t{timeout_ms} * 1'000'000;
        auto all_idle = [this] {
            for (Stream* stream : streams_)
                if (!stream->idle()) return false;
            return true;
        };
        if (!notifier_.wait_until(all_idle, deadline)) {
            return Failure{ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                           "device " + std::to_string(id_) + " still has unfinished work after " +
                               std::to_string(timeout_ms) + " ms"};
        }
    }
    // Every stream is synchronized (helping run the work) and its failure collected.
    Failure first;
    for (Stream* stream : streams_) {
        Failure failure = stream->synchronize();
        if (failure && !first) first = std::move(failure);
    }
    return first;
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
