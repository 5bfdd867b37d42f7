#pragma once
// Device and page-locked host allocations. Every allocation is registered so that frees, copies and
// memsets are checked against its bounds, and so that copy kinds can be checked or inferred.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <utility>
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
    // A range of a reservation mapped to physical memory (aclrtMapMem): device memory to every
    // check, but never aclrtFree's, and its bytes are the physical memory's (virtual_memory.h).
    bool mapped = false;
    // Which allocation this is, unique in the process: memory freed and allocated again at the same
    // address is another allocation (a captured copy's replay tells them apart).
    std::uint64_t serial = 0;
};

class PhysicalMemory;

// The next allocation's serial (Allocation::serial).
std::uint64_t next_allocation_serial();

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

    // Virtual memory management (virtual_memory.cpp). Every failure throws OperationError naming
    // the argument. A reservation is inaccessible address space of `size` bytes aligned to
    // `alignment` (both multiples of vmm_granularity); its addresses count as device memory to
    // in_device_heap, mapped or not.
    void* reserve(std::size_t size, std::size_t alignment);
    void release_reservation(void* base);
    // Maps [address, address + size) of a reservation, which must not be mapped yet, to the bytes
    // of memory from offset on, as device memory of device (nullptr when it is not set; a reset
    // of the device leaves its mappings in place, of no device).
    void map(void* address, std::size_t size, std::size_t offset, std::shared_ptr<PhysicalMemory> memory,
             Device* device);
    // Unmaps the mapping that starts at address. Its addresses read as zeros and take writes that
    // go nowhere until the reservation is released (a kernel still queued on them does no harm).
    void unmap(void* address);
    // Records the access of device `device_id` to the mapped range [address, address + size)
    // (ACL_RT_MEM_ACCESS_FLAGS_*), which must be covered by mappings; access_of reads it back for
    // the mapping holding address (READWRITE until set, as aclrtMapMem grants it).
    void set_access(void* address, std::size_t size, int device_id, std::uint64_t flags);
    std::uint64_t access_of(const void* address, int device_id) const;
    // IPC keys (aclrtIpcMemGetExportKey): backs the whole pages of [pointer, pointer + size), which
    // must lie in one device allocation, with shareable memory, their bytes kept (once: a range
    // inside one shared before reuses it). Returns the memory and the offset of pointer in it. The
    // caller makes sure no work writes the pages meanwhile.
    std::pair<std::shared_ptr<PhysicalMemory>, std::size_t> make_shareable(void* pointer, std::size_t size);
    // Maps memory another process exported into a reservation of its own and registers the
    // length bytes at offset as a device allocation (aclrtIpcMemImportByKey); returns their address.
    void* map_import(std::shared_ptr<PhysicalMemory> memory, std::size_t offset, std::size_t length, Device* device);
    // Ends what map_import made (aclrtIpcMemClose in the importer).
    void unmap_import(void* pointer);
    // The physical memory mapped at address (aclrtMemRetainAllocationHandle), nullptr if none.
    std::shared_ptr<PhysicalMemory> mapped_memory(const void* address) const;

    class DeviceHeap;

private:
    struct Mapping {
        std::size_t size;
        std::shared_ptr<PhysicalMemory> memory;
        std::map<int, std::uint64_t> access;  // per device id; absent = READWRITE
    };
    struct Reservation {
        std::size_t size;
        void* system_base;          // what mmap returned (the reservation is aligned inside it)
        std::size_t system_size;
        std::map<std::uintptr_t, Mapping> mappings;  // by address
    };
    // The reservation holding address, end() if none (under mutex_).
    std::map<std::uintptr_t, Reservation>::const_iterator reservation_of(std::uintptr_t address) const;
    std::map<std::uintptr_t, Reservation> reservations_;
    struct SharedSpan {
        std::size_t size;
        std::shared_ptr<PhysicalMemory> memory;
    };
    std::map<std::uintptr_t, SharedSpan> shared_spans_;  // make_shareable's pages, by address

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
