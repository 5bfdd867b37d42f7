#include "canopy/engine/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "canopy/engine/device.h"

namespace canopy::engine {

Runtime::Runtime(const RuntimeConfig& config) : config_(config), devices_(config.device_count) {
    const auto wanted = static_cast<std::size_t>(config_.effective_workers() + 1);
    const std::size_t current =
        oneapi::tbb::global_control::active_value(oneapi::tbb::global_control::max_allowed_parallelism);
    if (wanted > current) {
        parallelism_ = std::make_unique<oneapi::tbb::global_control>(
            oneapi::tbb::global_control::max_allowed_parallelism, wanted);
    }
}

Runtime::~Runtime() {
    {
        std::lock_guard lock(devices_mutex_);
        for (Slot& slot : devices_) {
            if (!slot.device) continue;
            const std::vector<void*> bytes = memory_.take_device(*slot.device);
            slot.device.reset();  // waits for the device's work, which may still use its memory
            for (void* allocation : bytes) memory_.release(allocation);
        }
    }
    // Every device has finished its work.
    for (Quarantined& entry : quarantine_) memory_.release(entry.bytes);
}

bool Runtime::release_memory(void* ptr, MemoryKind kind) {
    // What may fail comes before the allocation ends, so that a failed free leaves it allocated.
    std::vector<StreamMark> marks;
    {
        std::lock_guard lock(devices_mutex_);
        for (Slot& slot : devices_) {
            if (!slot.device) continue;
            std::vector<StreamMark> busy = slot.device->busy_streams();
            marks.insert(marks.end(), busy.begin(), busy.end());
        }
    }
    reclaim();
    std::unique_lock quarantine_lock(quarantine_mutex_, std::defer_lock);
    if (!marks.empty()) {
        quarantine_lock.lock();
        if (quarantine_.size() == quarantine_.capacity()) quarantine_.reserve(std::max<std::size_t>(2 * quarantine_.capacity(), 8));
    }
    if (!memory_.take(ptr, kind)) return false;
    if (marks.empty()) {
        memory_.release(ptr);
        return true;
    }
    quarantine_.push_back(Quarantined{ptr, std::move(marks)});
    return true;
}

bool Runtime::reached(const StreamMark& mark) {
    std::lock_guard lock(devices_mutex_);
    const auto index = static_cast<std::size_t>(mark.device_id);
    Device* device = index < devices_.size() ? devices_[index].device.get() : nullptr;
    return !device || device->reached(mark);
}

void Runtime::reclaim() {
    // Released under the lock rather than moved out: that would allocate, and releasing does not.
    std::lock_guard lock(quarantine_mutex_);
    auto waiting_end = std::partition(quarantine_.begin(), quarantine_.end(), [this](const Quarantined& entry) {
        return !std::all_of(entry.marks.begin(), entry.marks.end(), [this](const StreamMark& mark) { return reached(mark); });
    });
    for (auto done = waiting_end; done != quarantine_.end(); ++done) memory_.release(done->bytes);
    quarantine_.erase(waiting_end, quarantine_.end());
}

Device& Runtime::create_device(int id) {
    std::lock_guard lock(devices_mutex_);
    Slot& slot = devices_.at(static_cast<std::size_t>(id));
    if (!slot.device) slot.device = std::make_unique<Device>(id, config_);
    return *slot.device;
}

void Runtime::add_reference(int id) {
    std::lock_guard lock(devices_mutex_);
    ++devices_[static_cast<std::size_t>(id)].references;
}

int Runtime::release_device(int id, bool all) {
    std::lock_guard lock(devices_mutex_);
    Slot& slot = devices_.at(static_cast<std::size_t>(id));
    if (!slot.device || slot.references == 0) return -1;
    slot.references = all ? 0 : std::max(0, slot.references - 1);
    return slot.references;
}

int Runtime::device_references(int id) {
    std::lock_guard lock(devices_mutex_);
    return devices_.at(static_cast<std::size_t>(id)).references;
}

void Runtime::destroy_device(int id) {
    std::unique_ptr<Device> device;
    {
        std::lock_guard lock(devices_mutex_);
        Slot& slot = devices_.at(static_cast<std::size_t>(id));
        if (slot.references > 0) return;
        device = std::move(slot.device);
    }
    if (!device) return;
    const std::vector<void*> bytes = memory_.take_device(*device);
    device.reset();  // waits for the device's work, which may still use its memory
    for (void* allocation : bytes) memory_.release(allocation);
}

Device* Runtime::device(int id) {
    std::lock_guard lock(devices_mutex_);
    if (id < 0 || id >= static_cast<int>(devices_.size())) return nullptr;
    return devices_[static_cast<std::size_t>(id)].device.get();
}

}  // namespace canopy::engine
