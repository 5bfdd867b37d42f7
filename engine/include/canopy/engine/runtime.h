#pragma once
// The process-wide runtime between aclInit and aclFinalize: configuration, devices (created by the
// first aclrtSetDevice, destroyed by the last reset), registered memory and callback subscriptions.
#include <memory>
#include <mutex>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include "canopy/engine/config.h"
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

    // aclrtSetDevice: creates the device on first use and counts the reference. id must be valid.
    Device& acquire_device(int id);
    // aclrtResetDevice(Force): drops one (or every) reference; returns the references left, or -1
    // when the device was not set. At zero the caller releases what it built on the device, then
    // calls destroy_device.
    int release_device(int id, bool all);
    void destroy_device(int id);
    // The device if it is set, else nullptr.
    Device* device(int id);

    MemoryRegistry& memory() { return memory_; }
    ReportHub& reports() { return reports_; }

private:
    struct Slot {
        int references = 0;
        std::unique_ptr<Device> device;
    };

    const RuntimeConfig config_;
    // Enough TBB workers for one device's configured concurrency plus a synchronizing host thread.
    std::unique_ptr<oneapi::tbb::global_control> parallelism_;
    MemoryRegistry memory_;
    ReportHub reports_;
    std::mutex devices_mutex_;
    std::vector<Slot> devices_;
};

}  // namespace canopy::engine
