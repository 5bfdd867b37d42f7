#pragma once
// The pipe model. An AI core issues each instruction to one of its pipes (scalar, vector, cube,
// the MTE copy engines, fixpipe); the pipes run concurrently, each in its own order, and only
// explicit synchronization orders an instruction of one pipe after an instruction of another:
// SetFlag/WaitFlag, PipeBarrier<PIPE_ALL>, and the queues (TQue EnQue/DeQue, AllocTensor/FreeTensor).
// A CPU block runs its instructions one after another, so a missing synchronization never shows
// in its results; the NPU would read stale data or overwrite data still being read.
//
// The launcher keeps one PipeState per running block. Every instruction on local memory (UB, L1,
// L0A/B/C, bias table) reports its operand ranges here; for every byte range the model remembers
// the last writing instruction and the last reader on each pipe, and each pipe's knowledge of how
// far every other pipe is known to have completed (a vector clock). An access that is not ordered
// after a conflicting earlier one on another pipe is a data race: the launch fails with
// ACL_ERROR_RT_AICORE_EXCEPTION naming both instructions and the range. WaitFlag without a
// pending SetFlag (a hang on the NPU), and flags still set when the kernel returns, fail too.
//
// The cost is per instruction and per operand range, never per element.
#include <cstddef>
#include <cstdint>

#include "canopy/kernel/block.h"

namespace canopy::kernel {

// The pipes, numbered as Ascend C's pipe_t numbers them (PIPE_S .. PIPE_MTE3, then PIPE_FIX).
enum class Pipe : std::uint8_t { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, FIX = 6 };
inline constexpr std::size_t pipe_count = 7;

CANOPY_KERNEL_API const char* pipe_name(Pipe pipe);

// One range an instruction reads or writes in a local memory.
struct Operand {
    const void* address = nullptr;  // first byte
    std::uint64_t bytes = 0;        // extent from the first to the last byte touched
    const void* memory_base = nullptr;
    const char* memory = nullptr;   // "UB", "L1", ...
    bool write = false;
    // The instruction handles the deferred moves under this range itself (deferred_moves.h); any
    // other operand lands them first.
    bool deferred = false;
    // L0C under the unit flags (Mmad's and Fixpipe's unitFlag 2 or 3): the cube and the fixpipe
    // order their accesses to it per fractal in hardware, with no SetFlag between them, when both
    // have the flag on.
    bool unit_flag = false;
};

// `api` runs on `pipe` touching `operands`; raises a KernelFault on a race. Operands without
// bytes are ignored.
CANOPY_KERNEL_API void pipe_instruction(Pipe pipe, const char* api, const Operand* operands, std::size_t count);

// SetFlag<src_dst>(event) / WaitFlag<src_dst>(event).
CANOPY_KERNEL_API void pipe_set_flag(Pipe src, Pipe dst, std::int32_t event, const char* api);
CANOPY_KERNEL_API void pipe_wait_flag(Pipe src, Pipe dst, std::int32_t event, const char* api);

// PipeBarrier<PIPE_ALL>: every instruction issued so far completes before any later one starts.
CANOPY_KERNEL_API void pipe_barrier_all();

// The part of a block's pipe state that the queue hand-overs read and raise, inline (they run
// several times per tile of every queued kernel); the launcher's PipeState (kernels/src/
// pipe_model.h) holds the rest.
//
// Instructions are numbered in issue order across all pipes, so "everything issued up to number n"
// is one number: an instruction of pipe q numbered at most n is exactly one issued by then.
struct PipeCounters {
    // Instructions issued by this block so far; an instruction's number is its position.
    std::uint32_t seq = 0;
    // Every later instruction is ordered after instructions 1..floor: PipeBarrier<PIPE_ALL> and the
    // queue hand-overs order all pipes at once.
    std::uint32_t floor = 0;
};

// A queue hand-over: `release` is what was issued up to it (EnQue, FreeTensor), `acquire` orders
// every later instruction after that (DeQue, AllocTensor).
inline std::uint32_t pipe_release() { return current_block().pipes->seq; }
inline void pipe_acquire(std::uint32_t released) {
    PipeCounters& counters = *current_block().pipes;
    if (released > counters.floor) counters.floor = released;
}

}  // namespace canopy::kernel
