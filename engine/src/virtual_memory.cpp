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
        allocations_.emplace(address, Allocation{address, size, size, MemoryKind::device, device, true});
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

// ---- sharing between processes ----------------------------------------------------------------

namespace shareable {
namespace {

constexpr std::uint32_t request_magic = 0x43505348;  // "CPSH"
constexpr std::uint64_t pid_bits = 22;
constexpr std::uint64_t pid_mask = (std::uint64_t{1} << pid_bits) - 1;

struct Request {
    std::uint32_t magic;
    std::uint32_t reserved;
    std::uint64_t handle;
};
struct Reply {
    std::int32_t status;  // ImportStatus
    std::uint32_t reserved;
    std::uint64_t size;
};

sockaddr_un address_of(std::int32_t pid, socklen_t& length) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    // Abstract (sun_path[0] == 0): no file to leave behind, gone with the process.
    const int n = std::snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "canopy-shareable-%d", pid);
    length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + static_cast<std::size_t>(n));
    return address;
}

struct Export {
    std::shared_ptr<PhysicalMemory> memory;
    bool check_pid;
    std::vector<std::int32_t> pids;
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
        for (auto& [handle, entry] : exports_) {
            if (entry.memory == memory) {
                entry.check_pid = entry.check_pid && check_pid;
                return handle;
            }
        }
        std::uint64_t handle = 0;
        while (handle == 0 || exports_.count(handle)) {
            std::uint64_t random = 0;
            if (getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
                throw OperationError(ACL_ERROR_RT_INTERNAL_ERROR, system_error("getrandom"));
            handle = (random << pid_bits) | (static_cast<std::uint64_t>(getpid()) & pid_mask);
        }
        exports_.emplace(handle, Export{std::move(memory), check_pid, {}});
        return handle;
    }
    std::uint64_t handle_of(const PhysicalMemory& memory) {
        std::lock_guard lock(mutex_);
        for (auto& [handle, entry] : exports_)
            if (entry.memory.get() == &memory) return handle;
        return 0;
    }
    bool allow(std::uint64_t handle, const std::int32_t* pids, std::size_t count) {
        std::lock_guard lock(mutex_);
        auto it = exports_.find(handle);
        if (it == exports_.end()) return false;
        it->second.pids.insert(it->second.pids.end(), pids, pids + count);
        return true;
    }
    void withdraw(const PhysicalMemory& memory) {
        std::lock_guard lock(mutex_);
        for (auto it = exports_.begin(); it != exports_.end();)
            it = it->second.memory.get() == &memory ? exports_.erase(it) : std::next(it);
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
        ucred peer{};
        socklen_t peer_length = sizeof peer;
        Reply reply{static_cast<std::int32_t>(ImportStatus::unknown_handle), 0, 0};
        int fd = -1;
        if (getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &peer_length) != 0) {
            reply.status = static_cast<std::int32_t>(ImportStatus::failed);
        } else {
            std::lock_guard lock(mutex_);
            auto it = exports_.find(request.handle);
            if (it != exports_.end()) {
                const Export& entry = it->second;
                const bool allowed = !entry.check_pid || peer.pid == getpid() ||
                                     std::find(entry.pids.begin(), entry.pids.end(), peer.pid) != entry.pids.end();
                reply.status = static_cast<std::int32_t>(allowed ? ImportStatus::ok : ImportStatus::refused);
                if (allowed) {
                    reply.size = entry.memory->size();
                    fd = entry.memory->fd();
                }
            }
            // fd stays open while the lock is held: sendmsg below duplicates it, and the memory's
            // owner cannot close it meanwhile only if it is sent under the lock.
            send_reply(connection, reply, fd);
            return;
        }
        send_reply(connection, reply, -1);
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
    std::map<std::uint64_t, Export> exports_;
};

}  // namespace

std::uint64_t publish(std::shared_ptr<PhysicalMemory> memory, bool check_pid) {
    return Server::instance().publish(std::move(memory), check_pid);
}
std::uint64_t handle_of(const PhysicalMemory& memory) { return Server::instance().handle_of(memory); }
bool allow(std::uint64_t handle, const std::int32_t* pids, std::size_t count) {
    return Server::instance().allow(handle, pids, count);
}
void withdraw(const PhysicalMemory& memory) { Server::instance().withdraw(memory); }

Imported request(std::uint64_t handle) {
    const auto pid = static_cast<std::int32_t>(handle & pid_mask);
    const int connection = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (connection < 0) return {ImportStatus::failed, -1, 0, system_error("socket")};
    socklen_t length;
    const sockaddr_un address = address_of(pid, length);
    if (connect(connection, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
        const int error = errno;
        close(connection);
        return {ImportStatus::no_exporter, -1, 0,
                "no process " + std::to_string(pid) + " exports memory (" + std::strerror(error) + ")"};
    }
    const Request message_out{request_magic, 0, handle};
    if (send(connection, &message_out, sizeof message_out, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof message_out)) {
        close(connection);
        return {ImportStatus::no_exporter, -1, 0, "process " + std::to_string(pid) + " went away"};
    }
    pollfd ready{connection, POLLIN, 0};
    if (poll(&ready, 1, 5000) != 1) {
        close(connection);
        return {ImportStatus::failed, -1, 0, "process " + std::to_string(pid) + " did not answer within 5 s"};
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
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header))
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(header), sizeof fd);
    if (received != static_cast<ssize_t>(sizeof reply)) {
        if (fd >= 0) close(fd);
        return {ImportStatus::no_exporter, -1, 0, "process " + std::to_string(pid) + " went away before it answered"};
    }
    const auto status = static_cast<ImportStatus>(reply.status);
    if (status != ImportStatus::ok || fd < 0) {
        if (fd >= 0) close(fd);
        switch (status) {
            case ImportStatus::refused:
                return {status, -1, 0, "process " + std::to_string(pid) + " has not whitelisted this process (" +
                                           std::to_string(getpid()) + ") for the handle (aclrtMemSetPidToShareableHandle)"};
            case ImportStatus::unknown_handle:
                return {status, -1, 0, "process " + std::to_string(pid) + " exports no such handle (freed, or never exported)"};
            default: return {ImportStatus::failed, -1, 0, "process " + std::to_string(pid) + " could not share the memory"};
        }
    }
    return {ImportStatus::ok, fd, static_cast<std::size_t>(reply.size), {}};
}

}  // namespace shareable

}  // namespace canopy::engine
