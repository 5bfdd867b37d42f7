#pragma once
// The launcher's side of the pipe model (canopy/kernel/pipes.h): the state of one running block.
#include <cstdint>
#include <vector>

#include "canopy/kernel/pipes.h"
#include "found_slot.h"

namespace canopy::kernel {

// What every pipe had issued (or was ordered after) at one point of the block's program, per pipe:
// a flag's snapshot, and what each pipe waited for.
struct PipeClock {
    std::uint32_t issued[pipe_count] = {};
};

struct PipeState : PipeCounters {
    struct Access {
        std::uint32_t seq = 0;  // 0: none
        bool unit_flag = false;  // an L0C access under the unit flags (Operand::unit_flag)
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
        // The number of the segment's last recorded access: at most `floor`, every access to it is
        // ordered before any later instruction and nothing needs checking.
        std::uint32_t latest = 0;
        // readers[q] is the last reader on pipe q when bit q of reader_pipes is set (a write clears
        // the one byte, not the seven records).
        std::uint8_t reader_pipes = 0;
        Access readers[pipe_count];
    };
    // A SetFlag not yet waited for, with what its source pipe had issued and was ordered after.
    struct Flag {
        Pipe src;
        Pipe dst;
        std::int32_t event;
        PipeClock clock;
    };

    // known[p].issued[q]: every later instruction of pipe p is ordered after the instructions of
    // pipe q numbered up to this.
    PipeClock known[pipe_count];
    std::vector<Segment> segments;
    std::vector<Flag> flags;
    // Set by SetFlag, the one thing besides an instruction that raises `known`: a block that issued
    // nothing and set no flag needs no clearing.
    bool clocks_raised = false;
    // Where the segment starting at an address was last found (found_slot.h): a kernel's
    // instructions go to a few buffers over and over, and a hit skips the search. Checked before use
    // (a stale index names a segment starting elsewhere).
    std::size_t found[found_slots] = {};

    // A new block: nothing issued, nothing tracked (keeps the vectors' capacity).
    void reset();
    // The kernel returned: flags still set are an error, reported as a KernelFault.
    void finish() {
        if (!flags.empty()) report_flags_left_set();
    }
    // Checks and records one operand of instruction `seq` on `pipe`.
    void access(Pipe pipe, const char* api, const Operand& operand);

private:
    bool ordered(Pipe pipe, const Operand& operand, std::size_t q, const Access& earlier) const;
    void check(const Segment& s, Pipe pipe, const char* api, const Operand& operand) const;
    void record(Segment& s, Pipe pipe, const char* api, const Operand& operand);
    // access() on any other range: finds, checks and splits the segments it overlaps.
    [[gnu::noinline]] void access_segments(Pipe pipe, const char* api, const Operand& operand);
    [[noreturn]] void report_flags_left_set();
    std::size_t split_at(std::uintptr_t at);
};

}  // namespace canopy::kernel
