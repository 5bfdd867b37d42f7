#include "canopy/engine/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <utility>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define CANOPY_POISON(address, bytes) ASAN_POISON_MEMORY_REGION(address, bytes)
#define CANOPY_UNPOISON(address, bytes) ASAN_UNPOISON_MEMORY_REGION(address, bytes)
#else
#define CANOPY_POISON(address, bytes) ((void)(address), (void)(bytes))
#define CANOPY_UNPOISON(address, bytes) ((void)(address), (void)(bytes))
#endif

#include "canopy/engine/detail/checked.h"
#include "canopy/engine/device.h"

namespace canopy::engine {

std::uint64_t next_allocation_serial() {
    static std::atomic<std::uint64_t> serials{0};
    return serials.fetch_add(1, std::memory_order_relaxed) + 1;
}

// Device memory comes from one reserved range of address space, so that an address can be told to
// be device memory even after it was freed: with the system allocator a freed device block goes
// back to the host heap, and the next copy from that stale pointer passes for a host copy.
//
// The range is reserved inaccessible (no memory is committed or accounted for) and made writable
// as the heap grows. Blocks are carved best fit from a free list kept coalesced by address; a
// large freed block gives its pages back to the system. When the range is exhausted (or cannot be
// reserved) allocations fall back to the system allocator: they lose stale-pointer detection but
// nothing else.
class MemoryRegistry::DeviceHeap {
public:
    DeviceHeap() {
        page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
        // 1 TiB covers 64 devices of the default 16 GiB; a process with a smaller address-space
        // limit gets what it can.
        for (std::size_t capacity = std::size_t{1} << 40; capacity >= (std::size_t{1} << 30); capacity /= 2) {
            void* range = mmap(nullptr, capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (range == MAP_FAILED) continue;
            base_ = reinterpret_cast<std::uintptr_t>(range);
            capacity_ = capacity;
            break;
        }
    }
    ~DeviceHeap() {
        if (base_) {
            // The shadow outlives the mapping: a later mapping at these addresses must not inherit it.
            CANOPY_UNPOISON(reinterpret_cast<void*>(base_), committed_);
            munmap(reinterpret_cast<void*>(base_), capacity_);
        }
    }
    DeviceHeap(const DeviceHeap&) = delete;
    DeviceHeap& operator=(const DeviceHeap&) = delete;

    bool owns(const void* pointer) const noexcept {
        const auto address = reinterpret_cast<std::uintptr_t>(pointer);
        return base_ != 0 && address >= base_ && address - base_ < capacity_;
    }

    // bytes is a multiple of MemoryRegistry::alignment. nullptr when the range is exhausted; throws
    // bad_alloc, leaving the heap as it was, when there is no memory for the bookkeeping.
    void* allocate(std::size_t bytes) {
        if (!base_) return nullptr;
        // The entries a new block may need (the block's own when the heap grows, a remainder's when a
        // free block is split) are made before anything changes.
        Blocks::node_type entry = new_block_entry();
        SizeIndex::node_type size_entry = new_size_entry();
        std::lock_guard lock(mutex_);
        Blocks::node_type block;
        auto fit = free_by_size_.lower_bound({bytes, 0});
        if (fit != free_by_size_.end()) {
            const auto [free_bytes, address] = *fit;
            SizeIndex::node_type fit_size_entry = free_by_size_.extract(fit);
            block = free_by_address_.extract(address);
            if (free_bytes > bytes) {
                entry.key() = address + bytes;
                entry.mapped().bytes = free_bytes - bytes;
                size_entry.value() = {free_bytes - bytes, address + bytes};
                free_by_address_.insert(std::move(entry));
                free_by_size_.insert(std::move(size_entry));
            }
            block.mapped() = Block{bytes, std::move(fit_size_entry)};
        } else {
            std::size_t new_top;
            if (!detail::checked_add(top_, bytes, new_top) || new_top > capacity_) return nullptr;
            if (new_top > committed_) {
                // Commit in steps of 2 MiB at least, so that small allocations rarely make a call.
                std::size_t target;
                if (!detail::checked_align_up(std::max(new_top, committed_ + (std::size_t{2} << 20)), page_, target))
                    return nullptr;
                target = std::min(target, capacity_);
                if (mprotect(reinterpret_cast<void*>(base_ + committed_), target - committed_, PROT_READ | PROT_WRITE) != 0)
                    return nullptr;
                CANOPY_POISON(reinterpret_cast<void*>(base_ + committed_), target - committed_);
                committed_ = target;
            }
            block = std::move(entry);
            block.key() = base_ + top_;
            block.mapped() = Block{bytes, std::move(size_entry)};
            top_ = new_top;
        }
        const std::uintptr_t address = block.key();
        used_.insert(std::move(block));
        CANOPY_UNPOISON(reinterpret_cast<void*>(address), bytes);
        return reinterpret_cast<void*>(address);
    }

    // Never allocates: the freed block's entries are reused for its free range.
    void release(void* pointer) {
        std::lock_guard lock(mutex_);
        auto it = used_.find(reinterpret_cast<std::uintptr_t>(pointer));
        if (it == used_.end()) return;
        Blocks::node_type block = used_.extract(it);
        std::uintptr_t address = block.key();
        std::size_t bytes = block.mapped().bytes;
        CANOPY_POISON(reinterpret_cast<void*>(address), bytes);
        discard_pages(address, bytes);
        // Coalesce with the free neighbours on both sides.
        if (auto next = free_by_address_.find(address + bytes); next != free_by_address_.end()) {
            bytes += next->second.bytes;
            erase_free(next);
        }
        if (auto next = free_by_address_.lower_bound(address); next != free_by_address_.begin()) {
            auto previous = std::prev(next);
            if (previous->first + previous->second.bytes == address) {
                address = previous->first;
                bytes += previous->second.bytes;
                erase_free(previous);
            }
        }
        if (address + bytes == base_ + top_) {
            top_ = address - base_;  // the heap shrinks back; its pages stay committed for reuse
            return;
        }
        SizeIndex::node_type size_entry = std::move(block.mapped().size_entry);
        size_entry.value() = {bytes, address};
        block.key() = address;
        block.mapped().bytes = bytes;
        free_by_size_.insert(std::move(size_entry));
        free_by_address_.insert(std::move(block));
    }

private:
    using SizeIndex = std::set<std::pair<std::size_t, std::uintptr_t>>;
    // A block in use holds the entry of the size index that it will take when it is freed.
    struct Block {
        std::size_t bytes;
        SizeIndex::node_type size_entry;
    };
    using Blocks = std::map<std::uintptr_t, Block>;

    static Blocks::node_type new_block_entry() {
        Blocks scratch;
        scratch.emplace(0, Block{0, {}});
        return scratch.extract(scratch.begin());
    }
    static SizeIndex::node_type new_size_entry() {
        SizeIndex scratch;
        scratch.emplace(0, 0);
        return scratch.extract(scratch.begin());
    }
    void erase_free(Blocks::iterator it) {
        free_by_size_.erase({it->second.bytes, it->first});
        free_by_address_.erase(it);
    }
    // Returns the whole pages of a large freed block to the system (they read as zeros when reused).
    void discard_pages(std::uintptr_t address, std::size_t bytes) const {
        constexpr std::size_t large = std::size_t{1} << 20;
        if (bytes < large) return;
        const std::uintptr_t first = (address + page_ - 1) / page_ * page_;
        const std::uintptr_t last = (address + bytes) / page_ * page_;
        if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    }

    std::uintptr_t base_ = 0;      // set once, by the constructor
    std::size_t capacity_ = 0;
    std::size_t page_ = 4096;
    std::mutex mutex_;
    std::size_t top_ = 0;          // bytes from base_ handed out at least once
    std::size_t committed_ = 0;    // bytes from base_ made accessible
    Blocks used_;
    Blocks free_by_address_;
    SizeIndex free_by_size_;
};

MemoryRegistry::MemoryRegistry() : heap_(std::make_unique<DeviceHeap>()) {}

MemoryRegistry::~MemoryRegistry() {
    for (auto& [base, allocation] : allocations_)
        if (!allocation.mapped) release(reinterpret_cast<void*>(base));
    for (auto& [base, reservation] : reservations_) munmap(reservation.system_base, reservation.system_size);
}

void* MemoryRegistry::allocate(std::size_t size, MemoryKind kind, Device* device) {
    if (size == 0 || size > (std::size_t{1} << 48)) return nullptr;
    std::size_t reserved;
    if (!detail::checked_add(size, padding, reserved) || !detail::checked_align_up(reserved, alignment, reserved))
        return nullptr;
    if (device && !device->reserve_memory(reserved)) return nullptr;
    void* ptr = nullptr;
    try {
        if (kind == MemoryKind::device) ptr = heap_->allocate(reserved);
        if (!ptr) ptr = std::aligned_alloc(alignment, reserved);
        if (!ptr) {
            if (device) device->release_memory(reserved);
            return nullptr;
        }
        std::unique_lock lock(mutex_);
        allocations_.emplace(reinterpret_cast<std::uintptr_t>(ptr),
                             Allocation{reinterpret_cast<std::uintptr_t>(ptr), size, reserved, kind, device, false,
                                        next_allocation_serial()});
    } catch (const std::bad_alloc&) {
        // No memory for the bookkeeping: the bytes and the device's reservation go back.
        release(ptr);
        if (device) device->release_memory(reserved);
        throw;
    }
    return ptr;
}

void MemoryRegistry::release(void* bytes) {
    if (!bytes) return;
    if (heap_->owns(bytes)) {
        heap_->release(bytes);
    } else {
        std::free(bytes);
    }
}

bool MemoryRegistry::in_device_heap(const void* ptr) const noexcept {
    if (heap_->owns(ptr)) return true;
    std::shared_lock lock(mutex_);
    return reservation_of(reinterpret_cast<std::uintptr_t>(ptr)) != reservations_.end();
}

std::optional<Allocation> MemoryRegistry::take(void* ptr, MemoryKind kind) {
    Allocation allocation;
    {
        std::unique_lock lock(mutex_);
        auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(ptr));
        if (it == allocations_.end() || it->second.kind != kind || it->second.mapped) return std::nullopt;
        allocation = it->second;
        allocations_.erase(it);
    }
    if (allocation.device) allocation.device->release_memory(allocation.reserved);
    return allocation;
}

std::vector<void*> MemoryRegistry::take_device(const Device& device) {
    std::vector<void*> taken;
    std::unique_lock lock(mutex_);
    taken.reserve(allocations_.size());  // an allocation erased here must reach the caller
    for (auto it = allocations_.begin(); it != allocations_.end();) {
        if (it->second.device == &device && it->second.mapped) {
            it->second.device = nullptr;  // the mapping stays, its bytes are the physical memory's
            ++it;
        } else if (it->second.device == &device) {
            taken.push_back(reinterpret_cast<void*>(it->first));
            it = allocations_.erase(it);
        } else {
            ++it;
        }
    }
    return taken;
}

std::optional<Allocation> MemoryRegistry::find(const void* ptr) const {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    std::shared_lock lock(mutex_);
    auto it = allocations_.upper_bound(address);
    if (it == allocations_.begin()) return std::nullopt;
    --it;
    if (!detail::fits_range(address, 1, it->first, it->second.reserved)) return std::nullopt;
    return it->second;
}

namespace {
// Below this a single memcpy is faster than splitting; above it, 1 MiB pieces keep every thread
// of the arena streaming. The pieces are balanced dynamically: the arena has one more slot than
// workers (for a helping host thread), so a static split would wait for a descheduled thread.
constexpr std::size_t parallel_threshold = std::size_t{4} << 20;
constexpr std::size_t piece = std::size_t{1} << 20;

template <class Body>
void for_each_piece(std::size_t count, Body body) {
    const std::size_t pieces = (count + piece - 1) / piece;
    oneapi::tbb::parallel_for(
        oneapi::tbb::blocked_range<std::size_t>(0, pieces, 1),
        [&](const oneapi::tbb::blocked_range<std::size_t>& range) {
            const std::size_t begin = range.begin() * piece;
            const std::size_t end = std::min(count, range.end() * piece);
            body(begin, end - begin);
        });
}
}  // namespace

void copy_bytes(void* dst, const void* src, std::size_t count) {
    if (count < parallel_threshold) {
        std::memmove(dst, src, count);
        return;
    }
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    // Overlapping ranges cannot be split safely.
    if (d < s + count && s < d + count) {
        std::memmove(dst, src, count);
        return;
    }
    for_each_piece(count, [&](std::size_t offset, std::size_t n) { std::memcpy(d + offset, s + offset, n); });
}

void fill_bytes(void* dst, int value, std::size_t count) {
    auto* d = static_cast<unsigned char*>(dst);
    if (count < parallel_threshold) {
        std::memset(d, value, count);
        return;
    }
    for_each_piece(count, [&](std::size_t offset, std::size_t n) { std::memset(d + offset, value, n); });
}

void copy_2d(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width,
             std::size_t height) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    if (width * height < parallel_threshold) {
        for (std::size_t row = 0; row < height; ++row) std::memmove(d + row * dst_pitch, s + row * src_pitch, width);
        return;
    }
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, height),
                              [&](const oneapi::tbb::blocked_range<std::size_t>& rows) {
                                  for (std::size_t row = rows.begin(); row != rows.end(); ++row)
                                      std::memcpy(d + row * dst_pitch, s + row * src_pitch, width);
                              });
}

}  // namespace canopy::engine
