#pragma once
// The process-wide runtime between aclInit and aclFinalize: configuration, devices (created by the
// first aclrtSetDevice, destroyed by the last reset), registered memory and callback subscriptions.
#include <memory>
#include <mutex>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "canopy/engine/config.h"
#include "canopy/engine/device.h"
#include "canopy/engine/memory.h"
#include "canopy/engine/report.h"

namespace canopy::engine {

class Device;

class Runtime {
public:
    explicit Runtime(const RuntimeConfig& config);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    const RuntimeConfig& config() const { return config_; }
    int device_count() const { return config_.device_count; }

    // aclrtSetDevice: creates the device on first use, without a reference yet, so that a failure
    // of what the caller builds on it next leaves the device unset. id must be valid.
    Device& create_device(int id);
    // Counts a reference on a device that create_device made (never fails).
    void add_reference(int id);
    // aclrtResetDevice(Force): drops one (or every) reference; returns the references left, or -1
    // when the device was not set (no reference, even if it exists). At zero the caller releases
    // what it built on the device, then calls destroy_device.
    int release_device(int id, bool all);
    // The references release_device would drop from: 0 when the device is not set.
    int device_references(int id);
    void destroy_device(int id);
    // The device if it is set, else nullptr.
    Device* device(int id);

    MemoryRegistry& memory() { return memory_; }

    // aclrtFree / aclrtFreeHost: the allocation ends at once for the program, but its bytes go back
    // to the system only once the work then in flight on the devices has finished. On the NPU freed
    // memory stays mapped in the driver's pool, so a kernel still running touches it harmlessly; on
    // a CPU it would corrupt the heap. false when ptr is not the base of a live allocation of that kind.
    bool release_memory(void* ptr, MemoryKind kind);
    ReportHub& reports() { return reports_; }

private:
    struct Slot {
        int references = 0;
        std::unique_ptr<Device> device;
    };
    struct Quarantined {
        void* bytes;
        std::vector<StreamMark> marks;  // the work it waits for
    };
    // Frees the quarantined bytes whose marks have all been reached.
    void reclaim();
    bool reached(const StreamMark& mark);

    const RuntimeConfig config_;
    // Enough TBB workers for one device's configured concurrency plus a synchronizing host thread.
    std::unique_ptr<oneapi::tbb::global_control> parallelism_;
    MemoryRegistry memory_;
    ReportHub reports_;
    std::mutex devices_mutex_;
    std::vector<Slot> devices_;
    std::mutex quarantine_mutex_;
    std::vector<Quarantined> quarantine_;
};

}  // namespace canopy::engine
