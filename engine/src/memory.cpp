#include "canopy/engine/memory.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "canopy/engine/device.h"

namespace canopy::engine {

MemoryRegistry::~MemoryRegistry() {
    for (auto& [base, allocation] : allocations_) std::free(reinterpret_cast<void*>(base));
}

void* MemoryRegistry::allocate(std::size_t size, MemoryKind kind, Device* device) {
    if (size == 0 || size > (std::size_t{1} << 48)) return nullptr;
    const std::size_t reserved = (size + padding + alignment - 1) / alignment * alignment;
    if (device && !device->reserve_memory(reserved)) return nullptr;
    void* ptr = std::aligned_alloc(alignment, reserved);
    if (!ptr) {
        if (device) device->release_memory(reserved);
        return nullptr;
    }
    std::unique_lock lock(mutex_);
    allocations_.emplace(reinterpret_cast<std::uintptr_t>(ptr),
                         Allocation{reinterpret_cast<std::uintptr_t>(ptr), size, reserved, kind, device});
    return ptr;
}

std::optional<Allocation> MemoryRegistry::take(void* ptr, MemoryKind kind) {
    Allocation allocation;
    {
        std::unique_lock lock(mutex_);
        auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(ptr));
        if (it == allocations_.end() || it->second.kind != kind) return std::nullopt;
        allocation = it->second;
        allocations_.erase(it);
    }
    if (allocation.device) allocation.device->release_memory(allocation.reserved);
    return allocation;
}

std::vector<void*> MemoryRegistry::take_device(const Device& device) {
    std::vector<void*> taken;
    std::unique_lock lock(mutex_);
    for (auto it = allocations_.begin(); it != allocations_.end();) {
        if (it->second.device == &device) {
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
    if (address >= it->first + it->second.reserved) return std::nullopt;
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
