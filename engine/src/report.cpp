#include "canopy/engine/report.h"

#include <algorithm>
#include <chrono>

#include "canopy/engine/stream.h"

namespace canopy::engine {

ReportHub::Result ReportHub::subscribe(Channel channel, std::uint64_t thread_id, Stream& stream) {
    std::lock_guard lock(mutex_);
    if (stream_owner_.count({channel, &stream})) return Result::repeat_subscribe;
    auto& subscriber = subscribers_[{channel, thread_id}];
    if (!subscriber) subscriber = std::make_shared<Subscriber>();
    ++subscriber->streams;
    stream_owner_[{channel, &stream}] = thread_id;
    return Result::ok;
}

ReportHub::Result ReportHub::unsubscribe(Channel channel, std::uint64_t thread_id, Stream& stream) {
    std::shared_ptr<Subscriber> subscriber;
    {
        std::lock_guard lock(mutex_);
        auto owner = stream_owner_.find({channel, &stream});
        if (owner == stream_owner_.end() || owner->second != thread_id) return Result::stream_not_subscribed;
        stream_owner_.erase(owner);
        auto it = subscribers_.find({channel, thread_id});
        subscriber = it->second;
        if (--subscriber->streams == 0) {
            subscriber->ready.notify_all();
            subscribers_.erase(it);
        }
    }
    // The stream's queued work runs here, taken one item at a time: unsubscribing needs no memory
    // (it also runs when a stream is destroyed), so no queued item can be lost for want of it.
    // Work of the stream that runs after this point finds no owner and runs where it is.
    for (;;) {
        Item item;
        {
            std::lock_guard lock(mutex_);
            auto found = std::find_if(subscriber->items.begin(), subscriber->items.end(),
                                      [&](const Item& queued) { return queued.stream == &stream; });
            if (found == subscriber->items.end()) break;
            item = std::move(*found);
            subscriber->items.erase(found);
        }
        const StreamWorkScope in_work(*item.stream, *item.device);
        item.fn(item.data);
        item.completion.complete();
    }
    return Result::ok;
}

bool ReportHub::subscribed(Channel channel, const Stream& stream) const {
    std::lock_guard lock(mutex_);
    return stream_owner_.count({channel, &stream}) != 0;
}

void ReportHub::forget(Stream& stream) {
    for (Channel channel : {Channel::callback, Channel::host_func}) {
        std::uint64_t thread_id;
        {
            std::lock_guard lock(mutex_);
            auto owner = stream_owner_.find({channel, &stream});
            if (owner == stream_owner_.end()) continue;
            thread_id = owner->second;
        }
        unsubscribe(channel, thread_id, stream);
    }
}

bool ReportHub::launch(Channel channel, Stream& stream, void (*fn)(void*), void* data, bool blocking) {
    if (!subscribed(channel, stream)) return false;
    const OpKind kind = channel == Channel::callback ? OpKind::callback : OpKind::host_func;
    stream.enqueue(Operation{kind, 0, nullptr, [this, channel, fn, data, blocking, target = &stream](OpRun& run) {
                                 std::unique_lock lock(mutex_);
                                 auto owner = stream_owner_.find({channel, target});
                                 if (owner == stream_owner_.end()) {
                                     // Unsubscribed since the launch: nobody will process it, so it
                                     // runs here rather than being lost or blocking the stream.
                                     lock.unlock();
                                     fn(data);
                                     return;
                                 }
                                 Subscriber& subscriber = *subscribers_.at({channel, owner->second});
                                 subscriber.items.push_back(
                                     Item{fn, data, target, &target->device(), blocking ? run.defer() : DeferredCompletion()});
                                 subscriber.ready.notify_one();
                             }});
    return true;
}

ReportHub::Result ReportHub::process(Channel channel, std::uint64_t thread_id, std::int32_t timeout_ms) {
    std::unique_lock lock(mutex_);
    auto it = subscribers_.find({channel, thread_id});
    if (it == subscribers_.end()) return Result::thread_not_subscribed;
    std::shared_ptr<Subscriber> subscriber = it->second;
    auto has_work = [&] { return !subscriber->items.empty() || subscriber->streams == 0; };
    if (timeout_ms < 0) {
        subscriber->ready.wait(lock, has_work);
    } else if (!subscriber->ready.wait_for(lock, std::chrono::milliseconds(timeout_ms), has_work)) {
        return Result::timeout;
    }
    if (subscriber->items.empty()) return Result::thread_not_subscribed;  // unsubscribed meanwhile
    Item item = std::move(subscriber->items.front());
    subscriber->items.pop_front();
    lock.unlock();
    const StreamWorkScope in_work(*item.stream, *item.device);  // the callback is its stream's work, run on this thread
    item.fn(item.data);
    item.completion.complete();
    return Result::ok;
}

}  // namespace canopy::engine
