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
    // Valid during the call only, and not even then for an operation that deferred its completion
    // (its stream may be gone): the ids below are read before the work runs.
    const Stream* stream;
    std::uint64_t bytes;     // bytes moved or set; for a kernel, its block count
    const char* name;        // kernel name, copy direction ("H2D", ...) or nullptr
    std::int64_t begin_ns;   // steady clock
    std::int64_t end_ns;
    int device_id = 0;
    int stream_id = 0;
    std::uint64_t task = 0;  // the operation's task id on its stream
    // Event record and wait: the record's identity (Operation::flow), 0 if none.
    std::uint64_t flow = 0;
    // A task of a captured graph that the replay operation `task` of the stream ran: its index in
    // the graph and the stream it was captured on (-1 for an operation of its own).
    std::int64_t graph_task = -1;
    int captured_stream_id = -1;
};

// One block (one core of a block, for a mix kernel) of a kernel launch, on the thread that ran it.
struct BlockRecord {
    const char* kernel;
    int device_id;
    int stream_id;
    std::uint64_t task;
    std::uint32_t block;
    std::uint32_t blocks;
    std::uint32_t core;  // the core's slot in its block: AICs first, then AIVs
    bool aic;            // the core is a cube core (AIC), else a vector core (AIV)
    std::int64_t begin_ns;
    std::int64_t end_ns;
};

class Observer {
public:
    virtual ~Observer() = default;
    // Called on the thread that ran the operation, possibly concurrently: implementations synchronize.
    virtual void on_operation(const OpRecord& record) = 0;
    // Called by the kernel launcher after each block, on the thread that ran it, when the observer
    // was installed as the launch started.
    virtual void on_block(const BlockRecord&) {}
};

// Installs (or, with nullptr, removes) the process-wide observer. The caller keeps it alive until
// every operation that started while it was installed has finished.
void set_observer(Observer* observer);
Observer* current_observer();

std::int64_t now_ns();

}  // namespace canopy::engine
