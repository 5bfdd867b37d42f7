#pragma once
// The launcher's side of the pipe model (canopy/kernel/pipes.h): the state of one running block.
#include <cstdint>
#include <vector>

#include "canopy/kernel/pipes.h"

namespace canopy::kernel {

struct PipeState {
    struct Access {
        std::uint32_t seq = 0;  // 0: none
        const char* api = nullptr;
    };
    // A byte range whose accesses are tracked as one; segments are disjoint and sorted by begin.
    struct Segment {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        const char* memory = nullptr;
        const void* memory_base = nullptr;
        Access writer;
        Pipe writer_pipe = Pipe::S;
        Access readers[pipe_count];
    };
    // A SetFlag not yet waited for, with what its source pipe had issued and was ordered after.
    struct Flag {
        Pipe src;
        Pipe dst;
        std::int32_t event;
        PipeClock clock;
    };

    // Instructions issued by this block so far; an instruction's number is its position.
    std::uint32_t seq = 0;
    // The number of the last instruction each pipe was given.
    PipeClock last;
    // known[p].issued[q]: the last instruction of pipe q that every later instruction of pipe p is
    // ordered after.
    PipeClock known[pipe_count];
    // What every pipe is ordered after: PipeBarrier<PIPE_ALL> and the queue hand-overs order all
    // pipes at once, so they raise this one clock instead of every row of `known`.
    PipeClock floor;
    std::vector<Segment> segments;
    std::vector<Flag> flags;
    // Set by what raises a clock without issuing an instruction (SetFlag, a queue hand-over), so
    // that reset() can leave the clocks of a block that did nothing as they are.
    bool clocks_raised = false;

    // A new block: nothing issued, nothing tracked (keeps the vectors' capacity).
    void reset();
    // The kernel returned: flags still set are an error, reported as a KernelFault.
    void finish() {
        if (!flags.empty()) report_flags_left_set();
    }
    // Checks and records one operand of instruction `seq` on `pipe`.
    void access(Pipe pipe, const char* api, const Operand& operand);

private:
    [[noreturn]] void report_flags_left_set();
    std::size_t split_at(std::uintptr_t at);
};

}  // namespace canopy::kernel
