#include "call_pins.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace canopy::api::pins {

namespace {
std::atomic<ThreadPins*> registry{nullptr};

// Gives the record back for another thread when this one ends.
struct Release {
    ~Release() {
        if (current) {
            current->size.store(0, std::memory_order_release);
            current->in_use.store(false, std::memory_order_release);
            current = nullptr;
        }
    }
};
thread_local Release release_at_exit;

bool register_membarrier() {
#if defined(__SANITIZE_THREAD__)
    return false;
#else
    const long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}
}  // namespace

const bool asymmetric = register_membarrier();

namespace {

bool holds(const ThreadPins& record, std::uintptr_t key) {
    const std::uint32_t size = record.size.load(asymmetric ? std::memory_order_acquire : std::memory_order_seq_cst);
    for (std::uint32_t index = 0; index < size && index < capacity; ++index)
        if (record.keys[index].load(std::memory_order_relaxed) == key) return true;
    return false;
}
}  // namespace

ThreadPins& register_thread() {
    (void)&release_at_exit;  // constructs the thread's exit hook
    for (ThreadPins* record = registry.load(std::memory_order_acquire); record; record = record->next) {
        bool free = false;
        if (record->in_use.compare_exchange_strong(free, true, std::memory_order_acq_rel)) return *(current = record);
    }
    auto* record = new ThreadPins;
    record->in_use.store(true, std::memory_order_relaxed);
    record->next = registry.load(std::memory_order_relaxed);
    while (!registry.compare_exchange_weak(record->next, record, std::memory_order_acq_rel)) {
    }
    return *(current = record);
}

void overflow() { throw std::length_error("API calls nested too deeply on this thread (host functions calling the runtime)"); }

void barrier() {
    if (asymmetric) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

void await_unpinned(std::uintptr_t key) {
    const ThreadPins* own = current;
    for (const ThreadPins* record = registry.load(std::memory_order_acquire); record; record = record->next) {
        if (record == own) continue;
        for (int round = 0; holds(*record, key); ++round) {
            if (round < 64) std::this_thread::yield();
            else std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
}

}  // namespace canopy::api::pins
