#pragma once
// Observation of executed operations (for timelines and profilers). With no observer installed the
// cost per operation is one relaxed atomic load.
#include <cstdint>

namespace canopy::engine {

class Stream;

enum class OpKind : std::uint8_t {
    host_func,
    callback,
    memcpy,
    memset,
    event_record,
    event_wait,
    event_reset,
    kernel,
    signal,       // notify record, value write: may release a parked signal_wait
    signal_wait,  // notify wait, value wait (engine/wait_list.h)
};

const char* to_string(OpKind kind);

struct OpRecord {
    OpKind kind;
    const Stream* stream;
    std::uint64_t bytes;     // bytes moved or set; for a kernel, its block count
    const char* name;        // kernel name or nullptr
    std::int64_t begin_ns;   // steady clock
    std::int64_t end_ns;
};

class Observer {
public:
    virtual ~Observer() = default;
    // Called on the thread that ran the operation, possibly concurrently: implementations synchronize.
    virtual void on_operation(const OpRecord& record) = 0;
};

// Installs (or, with nullptr, removes) the process-wide observer. The caller keeps it alive until
// every operation that started while it was installed has finished.
void set_observer(Observer* observer);
Observer* current_observer();

std::int64_t now_ns();

}  // namespace canopy::engine
