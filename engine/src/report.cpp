#include "canopy/engine/report.h"

#include <chrono>

#include "canopy/engine/stream.h"

namespace canopy::engine {

ReportHub::Result ReportHub::subscribe(std::uint64_t thread_id, Stream& stream) {
    std::lock_guard lock(mutex_);
    if (stream_owner_.count(&stream)) return Result::repeat_subscribe;
    auto& subscriber = subscribers_[thread_id];
    if (!subscriber) subscriber = std::make_shared<Subscriber>();
    ++subscriber->streams;
    stream_owner_[&stream] = thread_id;
    return Result::ok;
}

ReportHub::Result ReportHub::unsubscribe(std::uint64_t thread_id, Stream& stream) {
    std::deque<Item> orphans;
    {
        std::lock_guard lock(mutex_);
        auto owner = stream_owner_.find(&stream);
        if (owner == stream_owner_.end() || owner->second != thread_id) return Result::stream_not_subscribed;
        stream_owner_.erase(owner);
        auto it = subscribers_.find(thread_id);
        Subscriber& subscriber = *it->second;
        for (auto item = subscriber.items.begin(); item != subscriber.items.end();) {
            if (item->stream == &stream) {
                orphans.push_back(std::move(*item));
                item = subscriber.items.erase(item);
            } else {
                ++item;
            }
        }
        if (--subscriber.streams == 0) {
            subscriber.ready.notify_all();
            subscribers_.erase(it);
        }
    }
    for (Item& item : orphans) {
        item.fn(item.data);
        item.completion.complete();
    }
    return Result::ok;
}

bool ReportHub::subscribed(const Stream& stream) const {
    std::lock_guard lock(mutex_);
    return stream_owner_.count(&stream) != 0;
}

void ReportHub::forget(Stream& stream) {
    std::uint64_t thread_id;
    {
        std::lock_guard lock(mutex_);
        auto owner = stream_owner_.find(&stream);
        if (owner == stream_owner_.end()) return;
        thread_id = owner->second;
    }
    unsubscribe(thread_id, stream);
}

bool ReportHub::launch(Stream& stream, void (*fn)(void*), void* data, bool blocking) {
    if (!subscribed(stream)) return false;
    stream.enqueue(Operation{OpKind::callback, 0, nullptr, [this, fn, data, blocking, target = &stream](OpRun& run) {
                                 std::unique_lock lock(mutex_);
                                 auto owner = stream_owner_.find(target);
                                 if (owner == stream_owner_.end()) {
                                     // Unsubscribed since the launch: nobody will process it, so it
                                     // runs here rather than being lost or blocking the stream.
                                     lock.unlock();
                                     fn(data);
                                     return;
                                 }
                                 Subscriber& subscriber = *subscribers_.at(owner->second);
                                 subscriber.items.push_back(
                                     Item{fn, data, target, blocking ? run.defer() : DeferredCompletion()});
                                 subscriber.ready.notify_one();
                             }});
    return true;
}

ReportHub::Result ReportHub::process(std::uint64_t thread_id, std::int32_t timeout_ms) {
    std::unique_lock lock(mutex_);
    auto it = subscribers_.find(thread_id);
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
    item.fn(item.data);
    item.completion.complete();
    return Result::ok;
}

}  // namespace canopy::engine
