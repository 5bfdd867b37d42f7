#include "canopy/engine/wait_list.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/device.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

namespace {

// One thread for every timed wait of the process: it sleeps until the earliest deadline, so a
// timed wait costs no thread of its own. Started by the first timed wait.
class Deadlines {
public:
    using Clock = std::chrono::steady_clock;

    static Deadlines& instance() {
        static Deadlines deadlines;
        return deadlines;
    }

    void add(Clock::time_point when, std::function<void()> expire) {
        std::lock_guard lock(mutex_);
        if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
        pending_.emplace(when, std::move(expire));
        changed_.notify_one();
    }

    ~Deadlines() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            changed_.notify_one();
        }
        if (thread_.joinable()) thread_.join();
    }

private:
    void run() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            if (pending_.empty()) {
                changed_.wait(lock);
                continue;
            }
            const auto first = pending_.begin();
            if (Clock::now() < first->first) {
                changed_.wait_until(lock, first->first);
                continue;
            }
            std::function<void()> expire = std::move(first->second);
            pending_.erase(first);
            lock.unlock();
            expire();
            lock.lock();
        }
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::multimap<Clock::time_point, std::function<void()>> pending_;
    bool stopping_ = false;
    std::thread thread_;
};

// Every live list, for release_device.
struct Lists {
    std::mutex mutex;  // taken before any list's mutex
    std::set<WaitList*> live;
    std::map<const Device*, std::pair<int, std::string>> resetting;  // device -> failure of its waits
    // Streams destroyed with aclrtDestroyStreamForce (device, stream, its id: unique among the
    // device's streams), until their device is reset.
    std::set<std::tuple<const Device*, const Stream*, int>> abandoned;
};

Lists& lists() {
    static Lists all;
    return all;
}

}  // namespace

WaitList::WaitList() {
    std::lock_guard lock(lists().mutex);
    lists().live.insert(this);
}

WaitList::~WaitList() {
    std::lock_guard lock(lists().mutex);
    lists().live.erase(this);
}

void WaitList::begin_device_reset(const Device& device, int code, const std::string& message) {
    std::vector<DeferredCompletion> abandoned;
    {
        std::lock_guard registry(lists().mutex);
        lists().resetting[&device] = {code, message};
        for (WaitList* list : lists().live) {
            std::lock_guard lock(list->mutex_);
            for (auto it = list->parked_.begin(); it != list->parked_.end();) {
                if (it->device == &device) {
                    abandoned.push_back(std::move(it->completion));
                    it = list->parked_.erase(it);
                } else {
                    ++it;
                }
            }
        }
    }
    for (DeferredCompletion& completion : abandoned) completion.fail(code, message);
}

WaitList::Abandonment::Abandonment(const Stream& stream) : stream_(stream) {
    std::set<std::tuple<const Device*, const Stream*, int>> one{{&stream.device(), &stream, stream.id()}};
    mark_ = one.extract(one.begin());
}

void WaitList::abandon_stream(Abandonment abandonment, int code, const std::string& message) noexcept {
    const Stream& stream = abandonment.stream_;
    {
        // Under the registry's lock, which arrive() holds while it parks: a wait either parked
        // before and is failed below, or arrives after and finds the stream abandoned. Inserting
        // a node already made allocates nothing.
        std::lock_guard registry(lists().mutex);
        lists().abandoned.insert(std::move(abandonment.mark_));
    }
    // Taken one at a time, so that failing them needs no list of them.
    for (;;) {
        DeferredCompletion completion;
        {
            std::lock_guard registry(lists().mutex);
            for (WaitList* list : lists().live) {
                std::lock_guard lock(list->mutex_);
                auto parked = std::find_if(list->parked_.begin(), list->parked_.end(),
                                           [&](const auto& wait) { return wait.stream == &stream; });
                if (parked == list->parked_.end()) continue;
                completion = std::move(parked->completion);
                list->parked_.erase(parked);
                break;
            }
        }
        if (!completion) break;
        completion.fail(code, message);
    }
}

void WaitList::end_device_reset(const Device* device) {
    std::lock_guard registry(lists().mutex);
    lists().resetting.erase(device);
    auto& abandoned = lists().abandoned;
    for (auto it = abandoned.begin(); it != abandoned.end();) it = std::get<0>(*it) == device ? abandoned.erase(it) : std::next(it);
}

void WaitList::wait(Stream& stream, Condition condition, Timeout timeout) {
    stream.enqueue(wait_operation(std::move(condition), std::move(timeout)));
}

Operation WaitList::wait_operation(Condition condition, Timeout timeout) {
    auto wait = std::make_shared<const Wait>(Wait{std::move(condition), std::move(timeout)});
    return Operation{OpKind::signal_wait, 0, nullptr,
                     [self = shared_from_this(), wait = std::move(wait)](OpRun& run) { self->arrive(wait, run); }};
}

void WaitList::arrive(const std::shared_ptr<const Wait>& wait, OpRun& run) {
    // Once parked, the wait may be released on another thread at once, which finishes this
    // operation and destroys its function, the owner of `wait` and of the reference to this list:
    // what is needed after the lock is copied first.
    std::uint64_t id;
    const std::int64_t timeout_ms = wait->timeout.ms;
    const std::weak_ptr<WaitList> list = weak_from_this();
    {
        std::lock_guard registry(lists().mutex);
        std::lock_guard lock(mutex_);
        if (wait->condition()) return;
        const Device* device = &run.stream().device();
        if (auto reset = lists().resetting.find(device); reset != lists().resetting.end())
            throw OperationError(reset->second.first, reset->second.second);
        if (lists().abandoned.count({device, &run.stream(), run.stream().id()}) != 0) {
            throw OperationError(ACL_ERROR_RT_STREAM_ABORT,
                                 "the stream was destroyed (aclrtDestroyStreamForce) before the wait could end");
        }
        id = next_id_++;
        parked_.push_back(Parked{id, device, &run.stream(), wait, run.defer()});
    }
    if (timeout_ms > 0) {
        Deadlines::instance().add(Deadlines::Clock::now() + std::chrono::milliseconds(timeout_ms), [list, id] {
            if (std::shared_ptr<WaitList> alive = list.lock()) alive->expire(id);
        });
    }
}

void WaitList::expire(std::uint64_t id) {
    Parked expired;
    {
        std::lock_guard lock(mutex_);
        auto it = parked_.begin();
        while (it != parked_.end() && it->id != id) ++it;
        if (it == parked_.end()) return;  // released in time
        expired = std::move(*it);
        parked_.erase(it);
    }
    expired.completion.fail(expired.wait->timeout.code, expired.wait->timeout.message);
}

void WaitList::signal(Stream& stream, std::function<void()> change) {
    stream.enqueue(Operation{OpKind::signal, 0, nullptr, [self = shared_from_this(), change = std::move(change)](OpRun&) {
                                 self->signal_now(change);
                             }});
}

void WaitList::signal_now(const std::function<void()>& change) {
    std::vector<DeferredCompletion> released;
    {
        std::lock_guard lock(mutex_);
        change();
        for (auto it = parked_.begin(); it != parked_.end();) {
            if (it->wait->condition()) {
                released.push_back(std::move(it->completion));
                it = parked_.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Outside the lock: finishing a wait may run its stream's next operation on this thread.
    for (DeferredCompletion& completion : released) completion.complete();
}

std::size_t WaitList::parked() const {
    std::lock_guard lock(mutex_);
    return parked_.size();
}

}  // namespace canopy::engine
