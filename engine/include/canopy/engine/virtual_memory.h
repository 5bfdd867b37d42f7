#pragma once
// Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem, ...) and the
// sharing of physical memory between processes (aclrtMemExportToShareableHandle and its import).
//
// Physical memory is a memfd: shareable, and mapped with MAP_SHARED wherever it is mapped, so two
// ranges mapped to it (in one process or in two) show the same bytes. A reservation is a range of
// address space mapped inaccessible; MemoryRegistry::map places the memfd over part of it and
// registers the mapped range as a device allocation, so every copy, memset, kernel argument and
// bounds check treats it as device memory (registry in memory.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace canopy::engine {

class PhysicalMemory {
public:
    // size bytes of zeroed shareable memory; throws OperationError (ACL_ERROR_RT_MEMORY_ALLOCATION)
    // when the system refuses.
    static std::shared_ptr<PhysicalMemory> create(std::size_t size, int device_id);
    // Takes ownership of fd (memory another process exported).
    static std::shared_ptr<PhysicalMemory> adopt(int fd, std::size_t size, int device_id);
    ~PhysicalMemory();
    PhysicalMemory(const PhysicalMemory&) = delete;
    PhysicalMemory& operator=(const PhysicalMemory&) = delete;

    int fd() const { return fd_; }
    std::size_t size() const { return size_; }
    int device_id() const { return device_id_; }
    bool imported() const { return imported_; }

private:
    PhysicalMemory(int fd, std::size_t size, int device_id, bool imported)
        : fd_(fd), size_(size), device_id_(device_id), imported_(imported) {}
    int fd_;
    std::size_t size_;
    int device_id_;
    bool imported_;
};

// The granularity of reservations, physical allocations and mappings: 2 MiB, the huge page of
// CANN's device memory.
constexpr std::size_t vmm_granularity = std::size_t{2} << 20;

// Sharing physical memory with other processes. Each process that exports serves its exports on
// an abstract Unix socket named after its pid (a thread started by the first export); an importer
// connects to the exporter's socket, the exporter checks the importer's pid (SO_PEERCRED, which the
// importer cannot forge) against the export's whitelist and passes the memfd (SCM_RIGHTS).
// A shareable handle is the exporter's pid (22 bits, Linux's pid limit) under 42 random bits: a
// process that has not been given a handle cannot guess one.
namespace shareable {

// Exports memory (which stays alive until withdraw); check_pid false serves any process
// (ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION). Throws OperationError when the server cannot start.
std::uint64_t publish(std::shared_ptr<PhysicalMemory> memory, bool check_pid);
// The handle under which memory is exported, 0 if it is not.
std::uint64_t handle_of(const PhysicalMemory& memory);
// Adds pids to an export's whitelist; false when this process exports no such handle.
bool allow(std::uint64_t handle, const std::int32_t* pids, std::size_t count);
// Ends the exports of memory (aclrtFreePhysical): their handles stop resolving.
void withdraw(const PhysicalMemory& memory);

enum class ImportStatus { ok, no_exporter, unknown_handle, refused, failed };
struct Imported {
    ImportStatus status;
    int fd = -1;
    std::size_t size = 0;    // of the memory
    std::size_t offset = 0;  // of the exported range in it (keys)
    std::size_t length = 0;  // of the exported range (keys)
    std::string detail;      // why, when status is not ok
};
// Asks the exporter (the process whose pid the handle carries) for the memory. Never blocks for
// long: a dead exporter is no_exporter, one that does not answer within seconds is failed.
Imported request(std::uint64_t handle);

// Device memory exported by key (aclrtIpcMemGetExportKey): length bytes at offset of memory.
// The key, "canopy-<pid>-<32 hex digits>", names the exporting process and 128 random bits.
std::string publish_key(std::shared_ptr<PhysicalMemory> memory, std::size_t offset, std::size_t length,
                        bool check_pid);
bool allow_key(const std::string& key, const std::int32_t* pids, std::size_t count);
// false when this process exports no such key.
bool withdraw_key(const std::string& key);
// The exporting process of a well-formed key, -1 for anything else.
std::int32_t key_pid(const std::string& key);
Imported request_key(const std::string& key);
// The longest key, without its terminating NUL.
constexpr std::size_t key_length = 47;

}  // namespace shareable

}  // namespace canopy::engine
