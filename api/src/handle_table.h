#pragma once
// Maps the opaque C handles (aclrtStream, aclrtEvent, ...) to engine objects. A handle encodes a
// type tag, a slot index and the slot's generation, so any bit pattern can be checked without
// dereferencing it: a destroyed, stale, foreign or garbage handle simply fails to resolve.
//
// An object reached through a handle stays alive for the whole API call that reached it, even if
// another thread destroys it meanwhile: reach() publishes a hazard pin on the slot (call_pins.h),
// which the call's PinScope withdraws when the call returns. Removing closes the slot, so the
// handle fails to resolve at once, and waits until the calls of other threads that reached the
// object have returned before it hands the object over.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "call_pins.h"

namespace canopy::api {

// Withdraws, when the API call ends, the pins its handle lookups published (see call() in api.h).
class PinScope {
public:
    PinScope() : record_(pins::mine()), depth_(record_.size.load(std::memory_order_relaxed)) {}
    ~PinScope() { pins::unpin_to(record_, depth_); }
    PinScope(const PinScope&) = delete;
    PinScope& operator=(const PinScope&) = delete;

    // aclFinalize frees the tables: the pins of its own call go first.
    static void release_all() { pins::unpin_to(pins::mine(), 0); }

private:
    pins::ThreadPins& record_;
    std::uint32_t depth_;
};

enum class HandleTag : std::uint64_t {
    context = 1, stream = 2, event = 3, function = 4, binary = 5, args = 6,
    model = 11, notify = 12, label = 13, label_list = 14, task_group = 7, cond_handle = 8, physical_memory = 15,
};

template <class T, HandleTag Tag>
class HandleTable {
public:
    // The object stays owned by the table until it is removed.
    void* add(std::shared_ptr<T> object) {
        std::lock_guard lock(mutex_);
        std::uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            index = size_;
            if (index / chunk_size >= chunk_count) throw std::bad_alloc();
            // The free list has room for every slot: remove() must not fail once it has closed one.
            if (free_.capacity() <= size_) free_.reserve(std::max<std::size_t>(2 * free_.capacity(), 64));
            if (!chunks_[index / chunk_size].load(std::memory_order_relaxed))
                chunks_[index / chunk_size].store(new Slot[chunk_size], std::memory_order_release);
            // Fresh slots start at a process-wide count, so that a handle kept from before an
            // aclFinalize does not name an object of the next aclInit.
            slot_at(index).word.store(word_of(next_first_generation()) | closed, std::memory_order_relaxed);
            ++size_;
        }
        Slot& slot = slot_at(index);
        slot.object = std::move(object);
        const std::uint32_t generation = generation_of(slot.word.load(std::memory_order_relaxed));
        slot.word.store(word_of(generation), std::memory_order_release);  // open: reach() may pin it
        return encode(index, generation);
    }

    // The live object the handle names, pinned until the calling API call returns; nullptr if the
    // handle names none. Only inside call(), whose PinScope withdraws the pin.
    T* reach(const void* handle) const {
        Slot* slot = slot_named(handle);
        if (!slot) return nullptr;
        const std::uint64_t open_word = word_of(generation_in(handle));
        if (slot->word.load(std::memory_order_acquire) != open_word) return nullptr;
        pins::ThreadPins& record = pins::mine();
        const std::uint32_t depth = record.size.load(std::memory_order_relaxed);
        pins::pin(record, key_of(*slot));
        // Closed between the first look and the pin: the destroyer may not have seen the pin.
        if (slot->word.load(pins::recheck_order()) != open_word) {
            pins::unpin_to(record, depth);
            return nullptr;
        }
        return slot->object.get();
    }

    // A reference that outlives the call (kernel handles, model bindings, long waits); nullptr if
    // the handle names no live object.
    std::shared_ptr<T> share(const void* handle) const {
        std::lock_guard lock(mutex_);
        return is_open_locked(handle) ? slot_named(handle)->object : nullptr;
    }

    // Invalidates the handle, waits until the calls of other threads that reached the object have
    // returned, and hands the object back (references shared earlier keep it alive). The calling
    // thread's own pins are not waited for: its calls must not touch the object after this.
    std::shared_ptr<T> remove(const void* handle) {
        std::uint32_t index;
        {
            std::lock_guard lock(mutex_);
            if (!is_open_locked(handle)) return nullptr;
            index = index_in(handle);
            close_locked(index);
        }
        pins::barrier();
        pins::await_unpinned(key_of(slot_at(index)));
        std::lock_guard lock(mutex_);
        return free_locked(index);
    }

    // remove() for every object for which `doomed` is true. With `wait_for_calls` false, calls of
    // other threads still inside are not waited for (device reset and aclFinalize, which hold the
    // devices' lock that such a call may be blocked on).
    std::vector<std::shared_ptr<T>> remove_if(const std::function<bool(const T&)>& doomed, bool wait_for_calls = true) {
        std::vector<std::uint32_t> indices;
        std::vector<std::shared_ptr<T>> removed;
        {
            std::lock_guard lock(mutex_);
            indices.reserve(size_);  // slots closed here must all be freed again
            for (std::uint32_t index = 0; index < size_; ++index) {
                Slot& slot = slot_at(index);
                if (!(slot.word.load(std::memory_order_relaxed) & closed) && doomed(*slot.object)) {
                    indices.push_back(index);
                    close_locked(index);
                }
            }
        }
        if (wait_for_calls && !indices.empty()) {
            pins::barrier();
            for (std::uint32_t index : indices) pins::await_unpinned(key_of(slot_at(index)));
        }
        removed.reserve(indices.size());
        std::lock_guard lock(mutex_);
        for (std::uint32_t index : indices) removed.push_back(free_locked(index));
        return removed;
    }

    // Calls `visit` on every live object, under the table's lock (it must not call the table).
    void for_each(const std::function<void(const T&)>& visit) const {
        std::lock_guard lock(mutex_);
        for (std::uint32_t index = 0; index < size_; ++index) {
            const Slot& slot = slot_at(index);
            if (!(slot.word.load(std::memory_order_relaxed) & closed)) visit(*slot.object);
        }
    }

    // The handle of a live object, or nullptr.
    void* handle_of(const T* object) const {
        return find_handle([object](const T& live) { return &live == object; });
    }
    // The handle of the first live object for which `match` holds (under the table's lock: it must
    // not call the table), or nullptr.
    template <class Match>
    void* find_handle(Match match) const {
        std::lock_guard lock(mutex_);
        for (std::uint32_t index = 0; index < size_; ++index) {
            const Slot& slot = slot_at(index);
            const std::uint64_t word = slot.word.load(std::memory_order_relaxed);
            if (!(word & closed) && match(*slot.object)) return encode(index, generation_of(word));
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

    // A slot's word: its generation in the high half and the closed bit. A closed slot resolves no
    // handle; it is reused (with the next generation) once the calls that pinned it have left.
    static constexpr std::uint64_t closed = 1;
    static std::uint64_t word_of(std::uint32_t generation) { return std::uint64_t{generation} << 32; }
    static std::uint32_t generation_of(std::uint64_t word) { return static_cast<std::uint32_t>(word >> 32); }

    struct Slot {
        std::atomic<std::uint64_t> word{closed};
        std::shared_ptr<T> object;
    };
    static std::uintptr_t key_of(const Slot& slot) { return reinterpret_cast<std::uintptr_t>(&slot); }

    // The slot a well-formed handle of this table points at (its generation not checked yet).
    Slot* slot_named(const void* handle) const {
        const auto bits = reinterpret_cast<std::uintptr_t>(handle);
        if ((bits >> 60) != static_cast<std::uint64_t>(Tag)) return nullptr;
        const std::uint64_t low = bits & 0xffffffffu;
        if (low == 0) return nullptr;
        const auto index = static_cast<std::uint32_t>(low - 1);
        if (index / chunk_size >= chunk_count) return nullptr;
        Slot* chunk = chunks_[index / chunk_size].load(std::memory_order_acquire);
        if (!chunk) return nullptr;
        return &chunk[index % chunk_size];
    }
    bool is_open_locked(const void* handle) const {
        Slot* slot = slot_named(handle);
        return slot && slot->word.load(std::memory_order_relaxed) == word_of(generation_in(handle));
    }

    // Sequentially consistent: readers that pin without membarrier pair with it. The object stays
    // in the slot for the calls still reading it.
    void close_locked(std::uint32_t index) { slot_at(index).word.fetch_or(closed, std::memory_order_seq_cst); }

    // Once no other call holds the closed slot: its object goes to the remover, and its handles
    // stay stale for good (generation 0 is never handed out).
    std::shared_ptr<T> free_locked(std::uint32_t index) {
        Slot& slot = slot_at(index);
        std::uint32_t next = (generation_of(slot.word.load(std::memory_order_relaxed)) + 1) & generation_mask;
        slot.word.store(word_of(next == 0 ? 1 : next) | closed, std::memory_order_release);
        free_.push_back(index);
        return std::move(slot.object);
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
    static std::uint32_t index_in(const void* handle) {
        return static_cast<std::uint32_t>((reinterpret_cast<std::uintptr_t>(handle) & 0xffffffffu) - 1);
    }
    static std::uint32_t generation_in(const void* handle) {
        return static_cast<std::uint32_t>((reinterpret_cast<std::uintptr_t>(handle) >> 32) & generation_mask);
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
