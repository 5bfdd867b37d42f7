#pragma once
// Callbacks launched with aclrtLaunchCallback run on a host thread subscribed to the stream, inside
// that thread's aclrtProcessReport. A blocking callback keeps its stream waiting until it has run.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class Stream;

class ReportHub {
public:
    enum class Result { ok, repeat_subscribe, stream_not_subscribed, thread_not_subscribed, timeout };

    Result subscribe(std::uint64_t thread_id, Stream& stream);
    // Callbacks still queued for the stream run on the calling thread, so no stream is left waiting.
    Result unsubscribe(std::uint64_t thread_id, Stream& stream);
    bool subscribed(const Stream& stream) const;
    // Every stream the thread is subscribed to, so that a destroyed stream can be unsubscribed.
    void forget(Stream& stream);

    // Enqueues the callback on the stream; false if nobody is subscribed to it.
    bool launch(Stream& stream, void (*fn)(void*), void* data, bool blocking);
    // Runs the calling thread's next callback, waiting up to timeout_ms (-1: forever).
    Result process(std::uint64_t thread_id, std::int32_t timeout_ms);

private:
    struct Item {
        void (*fn)(void*);
        void* data;
        const Stream* stream;
        DeferredCompletion completion;  // empty for non-blocking callbacks
    };
    struct Subscriber {
        std::deque<Item> items;
        std::condition_variable ready;
        int streams = 0;
    };

    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::shared_ptr<Subscriber>> subscribers_;
    std::map<const Stream*, std::uint64_t> stream_owner_;
};

}  // namespace canopy::engine
