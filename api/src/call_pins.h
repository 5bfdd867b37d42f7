#pragma once
// Hazard pins: what keeps an object reached through a handle alive while the API call that reached
// it runs, at the cost of two plain stores and a load per handle on the calling thread.
//
// Each thread publishes, in a record of its own, the handle-table slots its running API calls have
// reached (a stack: a host function may call the runtime from inside aclrtSynchronizeStream). A
// destroyer closes the slot, then waits until no other thread's record holds it. The reader stores
// its pin and then checks the slot is still open; the destroyer closes it and then reads the
// records: with a full barrier between the store and the load on both sides one of them sees the
// other. The reader's barrier is asymmetric: the destroyer issues membarrier(2), which runs a full
// barrier on every thread of the process, so the reader needs only a compiler barrier. Where
// membarrier is missing (and under ThreadSanitizer, which does not model it) both sides use
// sequentially consistent operations instead.
#include <atomic>
#include <cstdint>

namespace canopy::api::pins {

constexpr std::uint32_t capacity = 64;

struct ThreadPins {
    std::atomic<std::uint32_t> size{0};
    std::atomic<std::uintptr_t> keys[capacity] = {};
    std::atomic<bool> in_use{false};
    ThreadPins* next = nullptr;  // the registry's list; records are reused, never freed
};

// The calling thread's record, registered on first use. Initial-exec TLS: read with one load
// instead of a call to __tls_get_addr on every API call; eight bytes, which the static TLS surplus
// that glibc keeps for libraries loaded with dlopen holds.
ThreadPins& register_thread();
inline thread_local ThreadPins* current __attribute__((tls_model("initial-exec"))) = nullptr;
inline ThreadPins& mine() { return current ? *current : register_thread(); }

// Whether destroyers issue membarrier (decided once, when the library loads).
extern const bool asymmetric;

// Publishes a pin on `key` (a slot's address) in the calling thread's record. Throws
// std::length_error when the calls on this thread nest too deeply to hold another pin.
void overflow();
inline void pin(ThreadPins& record, std::uintptr_t key) {
    const std::uint32_t size = record.size.load(std::memory_order_relaxed);
    if (size == capacity) overflow();
    record.keys[size].store(key, std::memory_order_relaxed);
    if (asymmetric) {
        record.size.store(size + 1, std::memory_order_release);
        std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
        record.size.store(size + 1, std::memory_order_seq_cst);
    }
}
// How the reader loads the slot's word after pinning (see above).
inline std::memory_order recheck_order() {
    return asymmetric ? std::memory_order_acquire : std::memory_order_seq_cst;
}
inline void unpin_to(ThreadPins& record, std::uint32_t size) { record.size.store(size, std::memory_order_release); }

// Destroyer side: after closing slots, makes the closes visible to every reader (membarrier), then
// waits for each key until no thread but the calling one holds it.
void barrier();
void await_unpinned(std::uintptr_t key);

}  // namespace canopy::api::pins
