#pragma once
// Maps the opaque C handles (aclrtStream, aclrtEvent, ...) to engine objects. A handle encodes a
// type tag, a slot index and the slot's generation, so any bit pattern can be checked without
// dereferencing it: a destroyed, stale, foreign or garbage handle simply fails to resolve.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace canopy::api {

enum class HandleTag : std::uint64_t {
    context = 1, stream = 2, event = 3, function = 4, binary = 5, args = 6,
    model = 11, notify = 12, label = 13, label_list = 14,
};

template <class T, HandleTag Tag>
class HandleTable {
public:
    // The object stays owned by the table until remove().
    void* add(std::shared_ptr<T> object) {
        std::lock_guard lock(mutex_);
        std::uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            index = size_;
            if (index / chunk_size >= chunk_count) throw std::bad_alloc();
            if (!chunks_[index / chunk_size].load(std::memory_order_relaxed))
                chunks_[index / chunk_size].store(new Slot[chunk_size], std::memory_order_release);
            // Fresh slots start at a process-wide count, so that a handle kept from before an
            // aclFinalize does not name an object of the next aclInit.
            slot_at(index).generation.store(next_first_generation(), std::memory_order_relaxed);
            ++size_;
        }
        Slot& slot = slot_at(index);
        slot.object = std::move(object);
        const std::uint32_t generation = slot.generation.load(std::memory_order_relaxed);
        return encode(index, generation);
    }

    // nullptr unless the handle names a live object of this table.
    T* find(const void* handle) const {
        const auto bits = reinterpret_cast<std::uintptr_t>(handle);
        if ((bits >> 60) != static_cast<std::uint64_t>(Tag)) return nullptr;
        const std::uint64_t low = bits & 0xffffffffu;
        if (low == 0) return nullptr;
        const auto index = static_cast<std::uint32_t>(low - 1);
        if (index / chunk_size >= chunk_count) return nullptr;
        Slot* chunk = chunks_[index / chunk_size].load(std::memory_order_acquire);
        if (!chunk) return nullptr;
        const Slot& slot = chunk[index % chunk_size];
        const auto generation = static_cast<std::uint32_t>((bits >> 32) & generation_mask);
        if (slot.generation.load(std::memory_order_acquire) != generation) return nullptr;
        return slot.object.get();
    }

    std::shared_ptr<T> share(const void* handle) const {
        std::lock_guard lock(mutex_);
        if (!find(handle)) return nullptr;
        return slot_at(index_of(handle)).object;
    }

    // Invalidates the handle and hands the object back (destroy it outside any lock).
    std::shared_ptr<T> remove(const void* handle) {
        std::lock_guard lock(mutex_);
        if (!find(handle)) return nullptr;
        const std::uint32_t index = index_of(handle);
        Slot& slot = slot_at(index);
        retire(slot);
        free_.push_back(index);
        return std::move(slot.object);
    }

    // Removes every object for which `doomed` is true; returns them for destruction.
    std::vector<std::shared_ptr<T>> remove_if(const std::function<bool(const T&)>& doomed) {
        std::vector<std::shared_ptr<T>> removed;
        std::lock_guard lock(mutex_);
        for (std::uint32_t index = 0; index < size_; ++index) {
            Slot& slot = slot_at(index);
            if (slot.object && doomed(*slot.object)) {
                retire(slot);
                free_.push_back(index);
                removed.push_back(std::move(slot.object));
            }
        }
        return removed;
    }

    // The handle of a live object, or nullptr.
    void* handle_of(const T* object) const {
        std::lock_guard lock(mutex_);
        for (std::uint32_t index = 0; index < size_; ++index) {
            const Slot& slot = slot_at(index);
            if (slot.object.get() == object) return encode(index, slot.generation.load(std::memory_order_relaxed));
        }
        return nullptr;
    }

    ~HandleTable() {
        for (auto& chunk : chunks_) delete[] chunk.load(std::memory_order_relaxed);
    }

private:
    static constexpr std::uint32_t chunk_size = 4096;
    static constexpr std::uint32_t chunk_count = 1024;
    static constexpr std::uint64_t generation_mask = (std::uint64_t{1} << 28) - 1;

    struct Slot {
        std::atomic<std::uint32_t> generation{0};
        std::shared_ptr<T> object;
    };

    // A removed slot's handles go stale; generation 0 is never handed out.
    static void retire(Slot& slot) {
        std::uint32_t next = (slot.generation.load(std::memory_order_relaxed) + 1) & generation_mask;
        slot.generation.store(next == 0 ? 1 : next, std::memory_order_release);
    }

    static std::uint32_t next_first_generation() {
        static std::atomic<std::uint32_t> counter{0};
        std::uint32_t generation;
        do generation = counter.fetch_add(1, std::memory_order_relaxed) & generation_mask;
        while (generation == 0);
        return generation;
    }

    static void* encode(std::uint32_t index, std::uint32_t generation) {
        const std::uint64_t bits = (static_cast<std::uint64_t>(Tag) << 60) |
                                   ((generation & generation_mask) << 32) | (std::uint64_t{index} + 1);
        return reinterpret_cast<void*>(static_cast<std::uintptr_t>(bits));
    }
    static std::uint32_t index_of(const void* handle) {
        return static_cast<std::uint32_t>((reinterpret_cast<std::uintptr_t>(handle) & 0xffffffffu) - 1);
    }
    Slot& slot_at(std::uint32_t index) const {
        return chunks_[index / chunk_size].load(std::memory_order_relaxed)[index % chunk_size];
    }

    mutable std::mutex mutex_;
    std::array<std::atomic<Slot*>, chunk_count> chunks_{};
    std::uint32_t size_ = 0;
    std::vector<std::uint32_t> free_;
};

}  // namespace canopy::api
