#pragma once
// Stream operations that wait for what another stream does (a notify record, a value write)
// without holding a thread. The waiting operation checks its condition when its stream reaches
// it; if the condition does not hold yet, the operation parks its deferred completion here and
// returns, so its node stays unfinished and the stream's later work stays behind it, exactly as
// behind an event wait's edge. The signalling operation changes the state under the list's lock
// and finishes the parked waits whose condition now holds.
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

#include "canopy/engine/operation.h"

namespace canopy::engine {

class Device;
class Stream;

class WaitList : public std::enable_shared_from_this<WaitList> {
public:
    WaitList();
    ~WaitList();
    WaitList(const WaitList&) = delete;
    WaitList& operator=(const WaitList&) = delete;

    // Evaluated under the list's lock; returning true may consume what it waited for (a notify).
    using Condition = std::function<bool()>;

    struct Timeout {
        std::int64_t ms = 0;  // 0: wait forever
        int code = 0;         // the stream's failure when it expires
        std::string message;
    };

    // Enqueues on `stream` an operation that finishes once `condition` holds. The list must be
    // owned by a shared_ptr (pending waits keep it alive).
    void wait(Stream& stream, Condition condition, Timeout timeout);
    // The operation wait() enqueues, for a caller that runs it itself (a captured graph's task).
    Operation wait_operation(Condition condition, Timeout timeout);
    // Enqueues on `stream` an operation that applies `change` under the lock and then finishes the
    // parked waits whose condition now holds, oldest first.
    void signal(Stream& stream, std::function<void()> change);
    // Applies `change` now (not in any stream order), with the same effect on parked waits.
    void signal_now(const std::function<void()>& change);

    std::size_t parked() const;

    // The device is being reset: its streams must not wait for signals that will never come.
    // Fails every parked wait of the device's streams, of every list, and every wait that arrives
    // until end_device_reset.
    static void begin_device_reset(const Device& device, int code, const std::string& message);
    // `device` is only compared: it may already be destroyed.
    static void end_device_reset(const Device* device);
    // What abandoning a stream needs memory for, taken before the destroy has any effect.
    class Abandonment {
    public:
        explicit Abandonment(const Stream& stream);

    private:
        friend class WaitList;
        const Stream& stream_;
        std::set<std::tuple<const Device*, const Stream*, int>>::node_type mark_;
    };
    // The stream is being destroyed with aclrtDestroyStreamForce: its parked waits (its own, and
    // those of the replays it runs) fail now instead of holding the stream until a signal.
    // Waits arriving on the stream afterwards fail at once (until its device is reset). Never
    // fails: it runs after the destroy has begun.
    static void abandon_stream(Abandonment abandonment, int code, const std::string& message) noexcept;

private:
    struct Wait {
        Condition condition;
        Timeout timeout;
    };
    struct Parked {
        std::uint64_t id;
        const Device* device;
        const Stream* stream;  // only compared
        std::shared_ptr<const Wait> wait;
        DeferredCompletion completion;
    };

    void arrive(const std::shared_ptr<const Wait>& wait, OpRun& run);
    void expire(std::uint64_t id);

    mutable std::mutex mutex_;
    std::list<Parked> parked_;
    std::uint64_t next_id_ = 0;
};

}  // namespace canopy::engine
