#include "canopy/engine/virtual_memory.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <shared_mutex>
#include <thread>
#include <utility>

#include "acl/error_codes/acl_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"

namespace canopy::engine {

namespace {
std::string hex(std::uintptr_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}
std::string system_error(const char* what) { return std::string(what) + " failed: " + std::strerror(errno); }
}  // namespace

// ---- physical memory ------------------------------------------------------------------------

std::shared_ptr<PhysicalMemory> PhysicalMemory::create(std::size_t size, int device_id) {
    const int fd = memfd_create("canopy-physical", MFD_CLOEXEC);
    if (fd < 0) throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, system_error("memfd_create"));
    if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
        const std::string message = system_error("ftruncate") + " for " + std::to_string(size) + " bytes";
        close(fd);
        throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, message);
    }
    try {
        return std::shared_ptr<PhysicalMemory>(new PhysicalMemory(fd, size, device_id, false));
    } catch (...) {
        close(fd);
        throw;
    }
}

std::shared_ptr<PhysicalMemory> PhysicalMemory::adopt(int fd, std::size_t size, int device_id) {
    try {
        return std::shared_ptr<PhysicalMemory>(new PhysicalMemory(fd, size, device_id, true));
    } catch (...) {
        close(fd);
        throw;
    }
}

PhysicalMemory::~PhysicalMemory() { close(fd_); }

// ---- reservations and mappings ----------------------------------------------------------------

std::map<std::uintptr_t, MemoryRegistry::Reservation>::const_iterator MemoryRegistry::reservation_of(
    std::uintptr_t address) const {
    auto it = reservations_.upper_bound(address);
    if (it == reservations_.begin()) return reservations_.end();
    --it;
    return address - it->first < it->second.size ? it : reservations_.end();
}

void* MemoryRegistry::reserve(std::size_t size, std::size_t alignment) {
    if (alignment < vmm_granularity) alignment = vmm_granularity;
    std::size_t system_size;
    if (size == 0 || size > (std::size_t{1} << 46) || alignment > (std::size_t{1} << 40) ||
        __builtin_add_overflow(size, alignment, &system_size))
        throw OperationError(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " cannot be reserved");
    void* range = mmap(nullptr, system_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, system_error("mmap"));
    const auto system_base = reinterpret_cast<std::uintptr_t>(range);
    const std::uintptr_t base = (system_base + alignment - 1) / alignment * alignment;
    try {
        std::unique_lock lock(mutex_);
        reservations_.emplace(base, Reservation{size, range, system_size, {}});
    } catch (...) {
        munmap(range, system_size);
        throw;
    }
    return reinterpret_cast<void*>(base);
}

void MemoryRegistry::release_reservation(void* base) {
    const auto address = reinterpret_cast<std::uintptr_t>(base);
    void* system_base;
    std::size_t system_size;
    {
        std::unique_lock lock(mutex_);
        auto it = reservations_.find(address);
        if (it == reservations_.end()) {
            throw OperationError(ACL_ERROR_INVALID_PARAM,
                                 "virPtr " + hex(address) + " is not the start of a range reserved by aclrtReserveMemAddress");
        }
        if (!it->second.mappings.empty()) {
            throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + ": " +
                                                              std::to_string(it->second.mappings.size()) +
                                                              " mapping(s) of the range are still in place (aclrtUnmapMem first)");
        }
        system_base = it->second.system_base;
        system_size = it->second.system_size;
        reservations_.erase(it);
    }
    munmap(system_base, system_size);
}

void MemoryRegistry::map(void* pointer, std::size_t size, std::size_t offset, std::shared_ptr<PhysicalMemory> memory,
                         Device* device) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    if (size == 0 || size % vmm_granularity != 0)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " is not a positive multiple of the granularity (" +
                                                          std::to_string(vmm_granularity) + ")");
    if (offset % vmm_granularity != 0)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "offset " + std::to_string(offset) +
                                                          " is not a multiple of the granularity (" + std::to_string(vmm_granularity) + ")");
    if (offset > memory->size() || size > memory->size() - offset)
        throw OperationError(ACL_ERROR_INVALID_PARAM, std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                                                          " run past the end of the physical memory of " +
                                                          std::to_string(memory->size()) + " bytes");
    std::unique_lock lock(mutex_);
    auto found = reservation_of(address);
    if (found == reservations_.end())
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not in a range reserved by aclrtReserveMemAddress");
    if (address % vmm_granularity != 0)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not aligned to the granularity (" +
                                                          std::to_string(vmm_granularity) + ")");
    auto& reservation = reservations_.at(found->first);
    if (size > reservation.size - (address - found->first))
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + ": " + std::to_string(size) +
                                                          " bytes run past the end of its reservation of " +
                                                          std::to_string(reservation.size) + " bytes");
    // No mapping may overlap [address, address + size).
    auto next = reservation.mappings.lower_bound(address);
    if (next != reservation.mappings.end() && next->first < address + size)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + ": the range overlaps the mapping at " + hex(next->first));
    if (next != reservation.mappings.begin()) {
        auto previous = std::prev(next);
        if (previous->first + previous->second.size > address)
            throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is inside the mapping at " + hex(previous->first));
    }
    // The bookkeeping first (it may throw), then the mapping (which, once made, cannot fail).
    auto mapping = reservation.mappings.emplace(address, Mapping{size, memory, {}}).first;
    try {
        allocations_.emplace(address, Allocation{address, size, size, MemoryKind::device, device, true, next_allocation_serial()});
    } catch (...) {
        reservation.mappings.erase(mapping);
        throw;
    }
    if (mmap(pointer, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory->fd(), static_cast<off_t>(offset)) ==
        MAP_FAILED) {
        const std::string message = system_error("mmap");
        allocations_.erase(address);
        reservation.mappings.erase(mapping);
        throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, message);
    }
}

void MemoryRegistry::unmap(void* pointer) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    std::unique_lock lock(mutex_);
    auto found = reservation_of(address);
    if (found == reservations_.end())
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not in a range reserved by aclrtReserveMemAddress");
    auto& reservation = reservations_.at(found->first);
    auto mapping = reservation.mappings.find(address);
    if (mapping == reservation.mappings.end())
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not the start of a mapping (aclrtMapMem)");
    // Private zero pages in place of the physical memory: a kernel still queued on the range
    // writes into them, never into memory the program reuses, and never faults.
    if (mmap(pointer, mapping->second.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
             -1, 0) == MAP_FAILED)
        throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, system_error("mmap"));
    allocations_.erase(address);
    reservation.mappings.erase(mapping);
}

void MemoryRegistry::set_access(void* pointer, std::size_t size, int device_id, std::uint64_t flags) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    std::unique_lock lock(mutex_);
    auto found = reservation_of(address);
    if (found == reservations_.end())
        throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not in a range reserved by aclrtReserveMemAddress");
    auto& reservation = reservations_.at(found->first);
    // The mappings must cover [address, address + size) without a gap.
    std::vector<Mapping*> covered;
    std::uintptr_t at = address;
    const std::uintptr_t end = address + size;
    auto it = reservation.mappings.upper_bound(address);
    if (it != reservation.mappings.begin()) --it;
    for (; at < end; ++it) {
        if (it == reservation.mappings.end() || it->first > at || it->first + it->second.size <= at)
            throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + ", size " + std::to_string(size) +
                                                              ": " + hex(at) + " is not mapped (aclrtMapMem)");
        covered.push_back(&it->second);
        at = it->first + it->second.size;
    }
    for (Mapping* mapping : covered) mapping->access[device_id] = flags;
}

std::uint64_t MemoryRegistry::access_of(const void* pointer, int device_id) const {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    std::shared_lock lock(mutex_);
    auto found = reservation_of(address);
    if (found != reservations_.end()) {
        const auto& mappings = found->second.mappings;
        auto it = mappings.upper_bound(address);
        if (it != mappings.begin()) {
            --it;
            if (address - it->first < it->second.size) {
                auto access = it->second.access.find(device_id);
                return access == it->second.access.end() ? 0x3 : access->second;
            }
        }
    }
    throw OperationError(ACL_ERROR_INVALID_PARAM, "virPtr " + hex(address) + " is not mapped (aclrtMapMem)");
}

std::shared_ptr<PhysicalMemory> MemoryRegistry::mapped_memory(const void* pointer) const {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    std::shared_lock lock(mutex_);
    auto found = reservation_of(address);
    if (found == reservations_.end()) return nullptr;
    auto it = found->second.mappings.upper_bound(address);
    if (it == found->second.mappings.begin()) return nullptr;
    --it;
    return address - it->first < it->second.size ? it->second.memory : nullptr;
}


std::pair<std::shared_ptr<PhysicalMemory>, std::size_t> MemoryRegistry::make_shareable(void* pointer, std::size_t size) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    std::unique_lock lock(mutex_);
    auto owner = allocations_.upper_bound(address);
    if (owner == allocations_.begin())
        throw OperationError(ACL_ERROR_INVALID_PARAM, "devPtr " + hex(address) + " is not device memory of aclrtMalloc");
    --owner;
    const Allocation& allocation = owner->second;
    if (allocation.kind != MemoryKind::device || address - allocation.base >= allocation.size)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "devPtr " + hex(address) + " is not device memory of aclrtMalloc");
    if (size == 0 || size > allocation.size - (address - allocation.base))
        throw OperationError(ACL_ERROR_INVALID_PARAM, "size " + std::to_string(size) + " at devPtr " + hex(address) +
                                                          " is 0 or runs past the end of its allocation of " +
                                                          std::to_string(allocation.size) + " bytes");
    if (allocation.mapped)
        throw OperationError(ACL_ERROR_INVALID_PARAM, "devPtr " + hex(address) +
                                                          " is mapped physical memory: share it with aclrtMemExportToShareableHandle");
    const std::uintptr_t first = address / page * page;
    const std::uintptr_t last = (address + size + page - 1) / page * page;
    // Pages shared before: a range inside them reuses their memory.
    auto span = shared_spans_.upper_bound(last - 1);
    if (span != shared_spans_.begin()) {
        --span;
        if (span->first <= first && last <= span->first + span->second.size)
            return {span->second.memory, address - span->first};
        if (span->first < last && first < span->first + span->second.size)
            throw OperationError(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "devPtr " + hex(address) + ", size " + std::to_string(size) +
                                                                       ": the range overlaps a range exported before, without lying inside it");
    }
    std::shared_ptr<PhysicalMemory> memory = PhysicalMemory::create(last - first, -1);
    shared_spans_.emplace(first, SharedSpan{last - first, memory});
    // The bytes go into the memory by a system call (the pages may hold poisoned neighbours to a
    // sanitizer), then the memory takes the pages' place at the same addresses.
    std::size_t written = 0;
    while (written < last - first) {
        const ssize_t n = pwrite(memory->fd(), reinterpret_cast<const void*>(first + written), last - first - written,
                                 static_cast<off_t>(written));
        if (n <= 0) {
            shared_spans_.erase(first);
            throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, system_error("pwrite"));
        }
        written += static_cast<std::size_t>(n);
    }
    if (mmap(reinterpret_cast<void*>(first), last - first, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory->fd(), 0) ==
        MAP_FAILED) {
        shared_spans_.erase(first);
        throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, system_error("mmap"));
    }
    return {memory, address - first};
}

void* MemoryRegistry::map_import(std::shared_ptr<PhysicalMemory> memory, std::size_t offset, std::size_t length,
                                 Device* device) {
    if (offset > memory->size() || length == 0 || length > memory->size() - offset)
        throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, "the exporter sent a range outside its memory");
    void* range = mmap(nullptr, memory->size(), PROT_READ | PROT_WRITE, MAP_SHARED, memory->fd(), 0);
    if (range == MAP_FAILED) throw OperationError(ACL_ERROR_RT_MEMORY_ALLOCATION, system_error("mmap"));
    const auto base = reinterpret_cast<std::uintptr_t>(range);
    try {
        std::unique_lock lock(mutex_);
        auto reservation = reservations_.emplace(base, Reservation{memory->size(), range, memory->size(), {}}).first;
        try {
            reservation->second.mappings.emplace(base, Mapping{memory->size(), memory, {}});
            allocations_.emplace(base + offset, Allocation{base + offset, length, length, MemoryKind::device, device, true, next_allocation_serial()});
        } catch (...) {
            reservations_.erase(reservation);
            throw;
        }
    } catch (...) {
        munmap(range, memory->size());
        throw;
    }
    return reinterpret_cast<void*>(base + offset);
}

void MemoryRegistry::unmap_import(void* pointer) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    void* range;
    std::size_t size;
    {
        std::unique_lock lock(mutex_);
        auto found = reservation_of(address);
        if (found == reservations_.end() || !allocations_.count(address))
            throw OperationError(ACL_ERROR_INVALID_PARAM, "devPtr " + hex(address) + " is not an import (aclrtIpcMemImportByKey)");
        range = found->second.system_base;
        size = found->second.system_size;
        allocations_.erase(address);
        reservations_.erase(found->first);
    }
    munmap(range, size);
}

// ---- sharing between processes ----------------------------------------------------------------

namespace shareable {
namespace {

constexpr std::uint32_t request_magic = 0x43505349;  // "CPSI"
constexpr std::uint64_t pid_bits = 22;
constexpr std::uint64_t pid_mask = (std::uint64_t{1} << pid_bits) - 1;

struct Request {
    std::uint32_t magic;
    std::uint32_t reserved;
    char key[64];  // NUL-terminated
};
struct Reply {
    std::int32_t status;  // ImportStatus
    std::uint32_t reserved;
    std::uint64_t size;
    std::uint64_t offset;
    std::uint64_t length;
};

sockaddr_un address_of(std::int32_t pid, socklen_t& length) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    // Abstract (sun_path[0] == 0): no file to leave behind, gone with the process.
    const int n = std::snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "canopy-shareable-%d", pid);
    length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + static_cast<std::size_t>(n));
    return address;
}

std::uint64_t random64() {
    std::uint64_t random = 0;
    if (getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
        throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, system_error("getrandom"));
    return random;
}

struct Export {
    std::shared_ptr<PhysicalMemory> memory;
    bool check_pid;
    std::vector<std::int32_t> pids;
    std::size_t offset;
    std::size_t length;
    bool by_key;  // aclrtIpcMemGetExportKey's, not a shareable handle's
};

// The process's exports and the thread that serves them, from the first export to the end of the process.
class Server {
public:
    static Server& instance() {
        static Server server;
        return server;
    }
    ~Server() {
        std::thread thread;
        {
            std::lock_guard lock(mutex_);
            if (listener_ < 0) return;
            shutdown(listener_, SHUT_RDWR);  // wakes accept()
            thread = std::move(thread_);
        }
        if (thread.joinable()) thread.join();
        close(listener_);
    }

    std::uint64_t publish(std::shared_ptr<PhysicalMemory> memory, bool check_pid) {
        std::lock_guard lock(mutex_);
        start();
        for (auto& [key, entry] : exports_) {
            if (!entry.by_key && entry.memory == memory) {
                entry.check_pid = entry.check_pid && check_pid;
                return std::stoull(key);
            }
        }
        std::uint64_t handle = 0;
        while (handle == 0 || exports_.count(std::to_string(handle)))
            handle = (random64() << pid_bits) | (static_cast<std::uint64_t>(getpid()) & pid_mask);
        const std::size_t size = memory->size();
        exports_.emplace(std::to_string(handle), Export{std::move(memory), check_pid, {}, 0, size, false});
        return handle;
    }
    std::string publish_key(std::shared_ptr<PhysicalMemory> memory, std::size_t offset, std::size_t length, bool check_pid) {
        std::lock_guard lock(mutex_);
        start();
        std::string key;
        while (key.empty() || exports_.count(key)) {
            char text[80];
            std::snprintf(text, sizeof text, "canopy-%d-%016llx%016llx", static_cast<int>(getpid()),
                          static_cast<unsigned long long>(random64()), static_cast<unsigned long long>(random64()));
            key = text;
        }
        exports_.emplace(key, Export{std::move(memory), check_pid, {}, offset, length, true});
        return key;
    }
    std::uint64_t handle_of(const PhysicalMemory& memory) {
        std::lock_guard lock(mutex_);
        for (auto& [key, entry] : exports_)
            if (!entry.by_key && entry.memory.get() == &memory) return std::stoull(key);
        return 0;
    }
    bool allow(const std::string& key, const std::int32_t* pids, std::size_t count) {
        std::lock_guard lock(mutex_);
        auto it = exports_.find(key);
        if (it == exports_.end()) return false;
        it->second.pids.insert(it->second.pids.end(), pids, pids + count);
        return true;
    }
    void withdraw(const PhysicalMemory& memory) {
        std::lock_guard lock(mutex_);
        for (auto it = exports_.begin(); it != exports_.end();)
            it = !it->second.by_key && it->second.memory.get() == &memory ? exports_.erase(it) : std::next(it);
    }
    bool withdraw(const std::string& key) {
        std::lock_guard lock(mutex_);
        return exports_.erase(key) != 0;
    }

private:
    Server() = default;

    // Under mutex_.
    void start() {
        if (listener_ >= 0) return;
        const int listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (listener < 0) throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, system_error("socket"));
        socklen_t length;
        const sockaddr_un address = address_of(static_cast<std::int32_t>(getpid()), length);
        if (bind(listener, reinterpret_cast<const sockaddr*>(&address), length) != 0 || listen(listener, 16) != 0) {
            const std::string message = system_error("bind/listen");
            close(listener);
            throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, message);
        }
        try {
            thread_ = std::thread([this, listener] { serve(listener); });
        } catch (...) {
            close(listener);
            throw;
        }
        listener_ = listener;
    }

    void serve(int listener) {
        for (;;) {
            const int connection = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (connection < 0) {
                if (errno == EINTR || errno == ECONNABORTED) continue;
                return;  // shut down
            }
            answer(connection);
            close(connection);
        }
    }

    void answer(int connection) {
        // A client that sends nothing is dropped after a second: the server serves the others.
        pollfd ready{connection, POLLIN, 0};
        if (poll(&ready, 1, 1000) != 1) return;
        Request request{};
        if (recv(connection, &request, sizeof request, 0) != static_cast<ssize_t>(sizeof request) ||
            request.magic != request_magic)
            return;
        request.key[sizeof request.key - 1] = 0;
        ucred peer{};
        socklen_t peer_length = sizeof peer;
        Reply reply{static_cast<std::int32_t>(ImportStatus::unknown_handle), 0, 0, 0, 0};
        if (getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &peer_length) != 0) {
            reply.status = static_cast<std::int32_t>(ImportStatus::failed);
            send_reply(connection, reply, -1);
            return;
        }
        // Under the lock, so that the memory (and its fd) stays alive while sendmsg duplicates it.
        std::lock_guard lock(mutex_);
        int fd = -1;
        auto it = exports_.find(request.key);
        if (it != exports_.end()) {
            const Export& entry = it->second;
            const bool allowed = !entry.check_pid || peer.pid == getpid() ||
                                 std::find(entry.pids.begin(), entry.pids.end(), peer.pid) != entry.pids.end();
            reply.status = static_cast<std::int32_t>(allowed ? ImportStatus::ok : ImportStatus::refused);
            if (allowed) {
                reply.size = entry.memory->size();
                reply.offset = entry.offset;
                reply.length = entry.length;
                fd = entry.memory->fd();
            }
        }
        send_reply(connection, reply, fd);
    }

    static void send_reply(int connection, const Reply& reply, int fd) {
        iovec part{const_cast<Reply*>(&reply), sizeof reply};
        msghdr message{};
        message.msg_iov = &part;
        message.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
        if (fd >= 0) {
            message.msg_control = control;
            message.msg_controllen = sizeof control;
            cmsghdr* header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(sizeof(int));
            std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
        }
        (void)sendmsg(connection, &message, MSG_NOSIGNAL);
    }

    std::mutex mutex_;
    int listener_ = -1;
    std::thread thread_;
    std::map<std::string, Export> exports_;
};

Imported ask(std::int32_t pid, const std::string& key) {
    if (pid <= 0 || key.size() >= sizeof(Request::key)) return {ImportStatus::unknown_handle, -1, 0, 0, 0, "malformed"};
    const int connection = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (connection < 0) return {ImportStatus::failed, -1, 0, 0, 0, system_error("socket")};
    socklen_t length;
    const sockaddr_un address = address_of(pid, length);
    if (connect(connection, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
        const int error = errno;
        close(connection);
        return {ImportStatus::no_exporter, -1, 0, 0, 0,
                "no process " + std::to_string(pid) + " exports memory (" + std::strerror(error) + ")"};
    }
    Request message_out{request_magic, 0, {}};
    std::memcpy(message_out.key, key.c_str(), key.size() + 1);
    if (send(connection, &message_out, sizeof message_out, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof message_out)) {
        close(connection);
        return {ImportStatus::no_exporter, -1, 0, 0, 0, "process " + std::to_string(pid) + " went away"};
    }
    pollfd ready{connection, POLLIN, 0};
    if (poll(&ready, 1, 5000) != 1) {
        close(connection);
        return {ImportStatus::failed, -1, 0, 0, 0, "process " + std::to_string(pid) + " did not answer within 5 s"};
    }
    Reply reply{};
    iovec part{&reply, sizeof reply};
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t received = recvmsg(connection, &message, MSG_CMSG_CLOEXEC);
    close(connection);
    int fd = -1;
    if (received >= 0)
        for (cmsghdr* header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header))
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(header), sizeof fd);
    if (received != static_cast<ssize_t>(sizeof reply)) {
        if (fd >= 0) close(fd);
        return {ImportStatus::no_exporter, -1, 0, 0, 0, "process " + std::to_string(pid) + " went away before it answered"};
    }
    const auto status = static_cast<ImportStatus>(reply.status);
    if (status != ImportStatus::ok || fd < 0) {
        if (fd >= 0) close(fd);
        switch (status) {
            case ImportStatus::refused:
                return {status, -1, 0, 0, 0, "process " + std::to_string(pid) + " has not whitelisted this process (" +
                                                 std::to_string(getpid()) + ")"};
            case ImportStatus::unknown_handle:
                return {status, -1, 0, 0, 0, "process " + std::to_string(pid) + " exports nothing under it (closed, freed, or never exported)"};
            default: return {ImportStatus::failed, -1, 0, 0, 0, "process " + std::to_string(pid) + " could not share the memory"};
        }
    }
    return {ImportStatus::ok, fd, static_cast<std::size_t>(reply.size), static_cast<std::size_t>(reply.offset),
            static_cast<std::size_t>(reply.length), {}};
}

}  // namespace

std::uint64_t publish(std::shared_ptr<PhysicalMemory> memory, bool check_pid) {
    return Server::instance().publish(std::move(memory), check_pid);
}
std::uint64_t handle_of(const PhysicalMemory& memory) { return Server::instance().handle_of(memory); }
bool allow(std::uint64_t handle, const std::int32_t* pids, std::size_t count) {
    return Server::instance().allow(std::to_string(handle), pids, count);
}
void withdraw(const PhysicalMemory& memory) { Server::instance().withdraw(memory); }
Imported request(std::uint64_t handle) {
    return ask(static_cast<std::int32_t>(handle & pid_mask), std::to_string(handle));
}

std::string publish_key(std::shared_ptr<PhysicalMemory> memory, std::size_t offset, std::size_t length, bool check_pid) {
    return Server::instance().publish_key(std::move(memory), offset, length, check_pid);
}
bool allow_key(const std::string& key, const std::int32_t* pids, std::size_t count) {
    return key_pid(key) > 0 && Server::instance().allow(key, pids, count);
}
bool withdraw_key(const std::string& key) { return key_pid(key) > 0 && Server::instance().withdraw(key); }
std::int32_t key_pid(const std::string& key) {
    int pid = 0;
    char random[40] = {};
    int consumed = 0;
    if (std::sscanf(key.c_str(), "canopy-%d-%32[0-9a-f]%n", &pid, random, &consumed) != 2 ||
        static_cast<std::size_t>(consumed) != key.size() || std::strlen(random) != 32 || pid <= 0)
        return -1;
    return pid;
}
Imported request_key(const std::string& key) {
    const std::int32_t pid = key_pid(key);
    if (pid <= 0) return {ImportStatus::unknown_handle, -1, 0, 0, 0, "not a key of aclrtIpcMemGetExportKey"};
    return ask(pid, key);
}

}  // namespace shareable

}  // namespace canopy::engine
