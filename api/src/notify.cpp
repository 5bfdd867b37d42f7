// Notifies (in-process): a one-bit flag that one stream sets (aclrtRecordNotify) and another
// stream consumes (aclrtWaitAndResetNotify). Unlike an event, a wait enqueued before the record
// still waits for it. The wait is a parked operation of the engine's WaitList: its node stays
// unfinished, holding back its stream's later work, until a record sets the flag; no thread blocks.
#include "api.h"
#include "canopy/engine/wait_list.h"

namespace canopy::api {

struct Notify {
    std::shared_ptr<engine::WaitList> waits = std::make_shared<engine::WaitList>();
    bool set = false;  // guarded by the wait list's lock
};

namespace {

std::shared_ptr<Notify> notify_handle(State& state, aclrtNotify handle) {
    require(handle, "notify");
    std::shared_ptr<Notify> notify = state.notifies.share(handle);
    if (!notify) fail(ACL_ERROR_RT_INVALID_HANDLE, "notify " + describe(handle) + " is not a live notify");
    return notify;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
    return call("aclrtCreateNotify", [&] {
        require(notify, "notify");
        State& s = state();
        if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag) +
                                              " is neither ACL_NOTIFY_DEFAULT nor ACL_NOTIFY_DEVICE_USE_ONLY");
        }
        current_context(s);  // a notify belongs to the current device, as in CANN
        *notify = s.notifies.add(std::make_shared<Notify>());
    });
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
    return call("aclrtDestroyNotify", [&] {
        State& s = state();
        notify_handle(s, notify);
        // Waits already enqueued keep the notify's state alive and are still released by records
        // already enqueued.
        s.notifies.remove(notify);
    });
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
    return call("aclrtRecordNotify", [&] {
        State& s = state();
        std::shared_ptr<Notify> target = notify_handle(s, notify);
        engine::Stream& on = target_stream(s, stream, "stream");
        Notify* raw = target.get();
        target->waits->signal(on, [raw, keep = target] { raw->set = true; });
    });
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
    return call("aclrtWaitAndResetNotify", [&] {
        State& s = state();
        std::shared_ptr<Notify> target = notify_handle(s, notify);
        engine::Stream& on = target_stream(s, stream, "stream");
        Notify* raw = target.get();
        engine::WaitList::Timeout limit{static_cast<std::int64_t>(timeout) * 1000, ACL_ERROR_RT_WAIT_TIMEOUT,
                                        "aclrtWaitAndResetNotify: notify " + describe(notify) + " was not recorded within " +
                                            std::to_string(timeout) + " s"};
        target->waits->wait(
            on,
            [raw, keep = target] {
                if (!raw->set) return false;
                raw->set = false;
                return true;
            },
            std::move(limit));
    });
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
    return call("aclrtGetNotifyId", [&] {
        require(notifyId, "notifyId");
        State& s = state();
        notify_handle(s, notify);
        // The handle's slot index: unique among live notifies, as a device's notify ids are.
        *notifyId = static_cast<uint32_t>((reinterpret_cast<std::uintptr_t>(notify) & 0xffffffffu) - 1);
    });
}

}  // extern "C"
