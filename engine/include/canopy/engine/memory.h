#pragma once
// Device and page-locked host allocations. Every allocation is registered so that frees, copies and
// memsets are checked against its bounds, and so that copy kinds can be checked or inferred.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace canopy::engine {

class Device;

enum class MemoryKind { device, host_pinned };

struct Allocation {
    std::uintptr_t base;
    std::size_t size;      // as requested
    std::size_t reserved;  // as allocated: rounded up, plus padding
    MemoryKind kind;
    Device* device;        // nullptr for host memory
};

class MemoryRegistry {
public:
    static constexpr std::size_t alignment = 64;
    static constexpr std::size_t padding = 32;

    MemoryRegistry();
    ~MemoryRegistry();
    MemoryRegistry(const MemoryRegistry&) = delete;
    MemoryRegistry& operator=(const MemoryRegistry&) = delete;

    // nullptr when the device's memory is exhausted or the system allocation fails.
    void* allocate(std::size_t size, MemoryKind kind, Device* device);
    // Ends the allocation at ptr (which must be its base, of that kind) and returns it; its bytes
    // stay the caller's to give back with release() (Runtime::release_memory). nullopt when there
    // is no such allocation.
    std::optional<Allocation> take(void* ptr, MemoryKind kind);
    // Ends every allocation of a device (aclrtResetDevice of its last reference) and returns their
    // bytes, for the caller to release once the device's work, which may still use them, has finished.
    std::vector<void*> take_device(const Device& device);
    // Gives back the bytes of an allocation that take() or take_device() ended.
    void release(void* bytes);

    // The allocation that contains ptr (padding included), if any.
    std::optional<Allocation> find(const void* ptr) const;
    // Whether ptr lies in the device heap, the address range device memory is carved from. A
    // pointer there that find() does not know is device memory already freed (or never handed
    // out), never host memory: host allocations cannot land in that range.
    bool in_device_heap(const void* ptr) const noexcept;

    class DeviceHeap;

private:
    mutable std::shared_mutex mutex_;
    std::map<std::uintptr_t, Allocation> allocations_;
    std::unique_ptr<DeviceHeap> heap_;
};

// Copies and fills that split large ranges across the current arena's threads.
void copy_bytes(void* dst, const void* src, std::size_t count);
void fill_bytes(void* dst, int value, std::size_t count);
void copy_2d(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width,
             std::size_t height);

}  // namespace canopy::engine
