#include "canopy/engine/observer.h"

#include <atomic>
#include <chrono>

namespace canopy::engine {

namespace {
std::atomic<Observer*> installed{nullptr};
}

void set_observer(Observer* observer) { installed.store(observer, std::memory_order_release); }

Observer* current_observer() { return installed.load(std::memory_order_acquire); }

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

const char* to_string(OpKind kind) {
    switch (kind) {
        case OpKind::host_func: return "host function";
        case OpKind::callback: return "callback";
        case OpKind::memcpy: return "memcpy";
        case OpKind::memset: return "memset";
        case OpKind::event_record: return "event record";
        case OpKind::event_wait: return "event wait";
        case OpKind::event_reset: return "event reset";
        case OpKind::kernel: return "kernel";
        case OpKind::signal: return "signal";
        case OpKind::signal_wait: return "signal wait";
    }
    return "operation";
}

}  // namespace canopy::engine
