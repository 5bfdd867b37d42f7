#pragma once
// Host work that runs on a host thread subscribed to its stream: callbacks (aclrtLaunchCallback, on
// the thread of aclrtSubscribeReport, inside its aclrtProcessReport) and host functions of a stream
// with a host-function thread (aclrtSubscribeHostFunc, inside its aclrtProcessHostFunc). Each is a
// channel with its own subscriptions. Blocking work keeps its stream waiting until it has run.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class Device;
class Stream;

class ReportHub {
public:
    enum class Result { ok, repeat_subscribe, stream_not_subscribed, thread_not_subscribed, timeout };
    enum class Channel { callback, host_func };

    Result subscribe(Channel channel, std::uint64_t thread_id, Stream& stream);
    // Work still queued for the stream runs on the calling thread, so no stream is left waiting.
    Result unsubscribe(Channel channel, std::uint64_t thread_id, Stream& stream);
    bool subscribed(Channel channel, const Stream& stream) const;
    // Drops the stream's subscriptions on every channel (the stream is being destroyed).
    void forget(Stream& stream);

    // Enqueues the work on the stream; false if no thread is subscribed to it on that channel.
    bool launch(Channel channel, Stream& stream, void (*fn)(void*), void* data, bool blocking);
    // Runs the calling thread's next work of the channel, waiting up to timeout_ms (-1: forever).
    Result process(Channel channel, std::uint64_t thread_id, std::int32_t timeout_ms);

private:
    struct Item {
        void (*fn)(void*) = nullptr;
        void* data = nullptr;
        const Stream* stream = nullptr;
        const Device* device = nullptr;  // the stream's, read at enqueue: a non-blocking callback's stream may go first
        DeferredCompletion completion;  // empty for non-blocking callbacks
    };
    struct Subscriber {
        std::deque<Item> items;
        std::condition_variable ready;
        int streams = 0;
    };

    using ThreadKey = std::pair<Channel, std::uint64_t>;
    using StreamKey = std::pair<Channel, const Stream*>;

    mutable std::mutex mutex_;
    std::map<ThreadKey, std::shared_ptr<Subscriber>> subscribers_;
    std::map<StreamKey, std::uint64_t> stream_owner_;
};

}  // namespace canopy::engine
