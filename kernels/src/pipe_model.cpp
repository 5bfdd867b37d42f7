// The pipe model (canopy/kernel/pipes.h): per-block vector clocks over the pipes and, for every
// tracked local-memory range, its last writer and its last reader on each pipe.
#include "pipe_model.h"

#include "canopy/kernel/deferred_moves.h"

#include <algorithm>
#include <string>

#include "acl/error_codes/rt_error_codes.h"

namespace canopy::kernel {

namespace {

constexpr int kRace = ACL_ERROR_RT_AICORE_EXCEPTION;

PipeState& state() { return static_cast<PipeState&>(*current_block().pipes); }

std::string hard_event_name(Pipe src, Pipe dst) {
    return std::string("HardEvent::") + (pipe_name(src) + 5) + "_" + (pipe_name(dst) + 5);
}

std::string range_text(const char* memory, const void* base, std::uintptr_t begin, std::uintptr_t end) {
    const auto origin = reinterpret_cast<std::uintptr_t>(base);
    return std::string(memory ? memory : "local memory") + " bytes [" + std::to_string(begin - origin) + ", " +
           std::to_string(end - origin) + ")";
}

// The pipes the unit flags order against each other: the cube and the fixpipe.
bool unit_flag_pair(Pipe a, Pipe b) { return (a == Pipe::M && b == Pipe::FIX) || (a == Pipe::FIX && b == Pipe::M); }

std::string instruction_text(const char* api, Pipe pipe, std::uint32_t seq) {
    return std::string(api) + " (" + pipe_name(pipe) + ", instruction " + std::to_string(seq) + ")";
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_race(const PipeState::Segment& segment, std::uintptr_t begin,
                                                      std::uintptr_t end, const char* earlier_api, Pipe earlier_pipe,
                                                      std::uint32_t earlier_seq, bool earlier_write,
                                                      const char* api, Pipe pipe, std::uint32_t seq, bool write) {
    const std::uintptr_t from = std::max(begin, segment.begin);
    const std::uintptr_t to = std::min(end, segment.end);
    raise(kRace, api,
          "data race on " + range_text(segment.memory, segment.memory_base, from, to) + ": " +
              instruction_text(api, pipe, seq) + (write ? " writes" : " reads") + " it while " +
              instruction_text(earlier_api, earlier_pipe, earlier_seq) +
              (earlier_write ? " may still be writing it" : " may still be reading it") +
              "; nothing orders them (SetFlag/WaitFlag<" + hard_event_name(earlier_pipe, pipe) +
              ">, PipeBarrier<PIPE_ALL>, a queue's EnQue/DeQue" +
              (unit_flag_pair(earlier_pipe, pipe) ? ", or unitFlag on both the Mmad and the Fixpipe)" : ")"));
}

// An operand in a memory the running core lacks: a UB tensor a mix kernel's AIC built (which
// LocalTensor allows, as the NPU does, until an instruction uses it).
[[noreturn, gnu::cold, gnu::noinline]] void fail_absent_memory(const char* api, const Operand& operand) {
    const bool aic = current_block().core_type == core_type_aic;
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
          std::string("an operand is in ") + (operand.memory ? operand.memory : "a local memory") +
              (aic ? ", which this core (an AIC) does not have; guard the code with ASCEND_IS_AIV"
                   : ", which this core does not have"));
}

}  // namespace

const char* pipe_name(Pipe pipe) {
    switch (pipe) {
        case Pipe::S: return "PIPE_S";
        case Pipe::V: return "PIPE_V";
        case Pipe::M: return "PIPE_M";
        case Pipe::MTE1: return "PIPE_MTE1";
        case Pipe::MTE2: return "PIPE_MTE2";
        case Pipe::MTE3: return "PIPE_MTE3";
        case Pipe::FIX: return "PIPE_FIX";
    }
    return "PIPE_?";
}

void PipeState::reset() {
    floor = 0;
    // Clearing the clocks (200 bytes) was most of the cost of an empty block.
    if (seq == 0 && !clocks_raised) return;
    clocks_raised = false;
    seq = 0;
    for (PipeClock& row : known) row = PipeClock{};
    segments.clear();
    flags.clear();
}

// Splits the segment holding `at` (if any) so that a segment boundary falls on `at`. Returns the
// index of the first segment starting at or after `at`.
std::size_t PipeState::split_at(std::uintptr_t at) {
    auto it = std::upper_bound(segments.begin(), segments.end(), at,
                               [](std::uintptr_t value, const Segment& s) { return value < s.begin; });
    std::size_t index = static_cast<std::size_t>(it - segments.begin());
    if (index > 0 && segments[index - 1].begin == at) return index - 1;
    if (index > 0 && segments[index - 1].end > at) {
        Segment tail = segments[index - 1];
        segments[index - 1].end = at;
        tail.begin = at;
        segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(index), tail);
        return index;
    }
    return index;
}

// Whether an earlier access on pipe q is ordered before an access on `pipe` (with `operand`).
bool PipeState::ordered(Pipe pipe, const Operand& operand, std::size_t q, const Access& earlier) const {
    // The last instruction of pipe q this one is ordered after.
    if (std::max(known[static_cast<std::size_t>(pipe)].issued[q], floor) >= earlier.seq) return true;
    // The unit flags order Mmad and Fixpipe on L0C both ways when both use them.
    return operand.unit_flag && earlier.unit_flag && unit_flag_pair(static_cast<Pipe>(q), pipe);
}

// Fails the launch when the access conflicts with one recorded on `s` that nothing orders before it.
// A write is checked against the readers first: they read after the last write, so the
// synchronization they miss is the one to name.
inline void PipeState::check(const Segment& s, Pipe pipe, const char* api, const Operand& operand) const {
    const auto p = static_cast<std::size_t>(pipe);
    const auto begin = reinterpret_cast<std::uintptr_t>(operand.address);
    const std::uintptr_t end = begin + operand.bytes;
    if (operand.write) {
        for (unsigned others = s.reader_pipes & ~(1u << p); others != 0; others &= others - 1) {
            const auto q = static_cast<std::size_t>(__builtin_ctz(others));
            const Access& reader = s.readers[q];
            if (!ordered(pipe, operand, q, reader)) [[unlikely]] {
                fail_race(s, begin, end, reader.api, static_cast<Pipe>(q), reader.seq, false, api, pipe, seq, true);
            }
        }
    }
    if (s.writer.seq != 0 && s.writer_pipe != pipe &&
        !ordered(pipe, operand, static_cast<std::size_t>(s.writer_pipe), s.writer)) [[unlikely]] {
        fail_race(s, begin, end, s.writer.api, s.writer_pipe, s.writer.seq, true, api, pipe, seq, operand.write);
    }
}

inline void PipeState::record(Segment& s, Pipe pipe, const char* api, const Operand& operand) {
    s.latest = seq;
    s.memory = operand.memory;
    s.memory_base = operand.memory_base;
    if (operand.write) {
        s.writer = Access{seq, operand.unit_flag, api};
        s.writer_pipe = pipe;
        s.reader_pipes = 0;
    } else if (pipe != Pipe::S) {
        // A scalar read is not tracked: the scalar unit has its value before it issues the
        // next instruction, so nothing later can overwrite the bytes under it.
        const auto p = static_cast<std::size_t>(pipe);
        s.readers[p] = Access{seq, operand.unit_flag, api};
        s.reader_pipes |= static_cast<std::uint8_t>(1u << p);
    }
}

inline void PipeState::access(Pipe pipe, const char* api, const Operand& operand) {
    // The common case: the range is exactly the tracked segment last found starting there (a
    // buffer reused as a whole).
    const auto begin = reinterpret_cast<std::uintptr_t>(operand.address);
    const std::size_t hit = found[found_slot(begin)];
    if (hit < segments.size()) [[likely]] {
        Segment& s = segments[hit];
        if (s.begin == begin && s.end == begin + operand.bytes) [[likely]] {
            if (s.latest > floor) check(s, pipe, api, operand);
            record(s, pipe, api, operand);
            return;
        }
    }
    access_segments(pipe, api, operand);
}

void PipeState::access_segments(Pipe pipe, const char* api, const Operand& operand) {
    const auto begin = reinterpret_cast<std::uintptr_t>(operand.address);
    const std::uintptr_t end = begin + operand.bytes;

    // The first segment overlapping the range.
    auto it = std::upper_bound(segments.begin(), segments.end(), begin,
                               [](std::uintptr_t value, const Segment& s) { return value < s.begin; });
    std::size_t first = static_cast<std::size_t>(it - segments.begin());
    if (first > 0 && segments[first - 1].end > begin) --first;

    // Check every overlapping segment before changing any.
    for (std::size_t i = first; i < segments.size() && segments[i].begin < end; ++i) {
        check(segments[i], pipe, api, operand);
    }

    // Boundaries at begin and end; segments [from, to) then lie inside the range, and the gaps
    // between them get segments of their own.
    const std::size_t from = split_at(begin);
    std::size_t to = split_at(end);
    std::uintptr_t cursor = begin;
    std::size_t i = from;
    while (cursor < end) {
        if (i < to && segments[i].begin == cursor) {
            cursor = segments[i].end;
            ++i;
            continue;
        }
        Segment gap;
        gap.begin = cursor;
        gap.end = i < to ? segments[i].begin : end;
        segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(i), gap);
        cursor = gap.end;
        ++i;
        ++to;
    }
    for (std::size_t k = from; k < to; ++k) record(segments[k], pipe, api, operand);
    found[found_slot(begin)] = from;
}

void pipe_instruction(Pipe pipe, const char* api, const Operand* operands, std::size_t count) {
    PipeState& s = state();
    ++s.seq;
    for (std::size_t i = 0; i < count; ++i) {
        if (operands[i].bytes == 0) continue;
        if (operands[i].memory_base == nullptr) [[unlikely]] fail_absent_memory(api, operands[i]);
        s.access(pipe, api, operands[i]);
    }
    if (deferred_move_count != 0) {
        for (std::size_t i = 0; i < count; ++i) {
            if (operands[i].bytes != 0 && !operands[i].deferred) land_deferred_moves(operands[i].address, operands[i].bytes);
        }
    }
}

// An event is a counter on the NPU: a SetFlag counts up, a WaitFlag waits for a count and takes it
// (catlass sets an event its constructor already set and waits for both). Each set is kept with what
// it orders; a wait takes the earliest. The cross-core counters of the same cores hold 15 (CANN's
// CrossCoreSetFlag documentation); Canopy holds the in-core ones to that too.
constexpr std::size_t max_pending_sets = 15;

void pipe_set_flag(Pipe src, Pipe dst, std::int32_t event, const char* api) {
    PipeState& s = state();
    std::size_t pending = 0;
    for (const PipeState::Flag& flag : s.flags) {
        if (flag.src == src && flag.dst == dst && flag.event == event) ++pending;
    }
    if (pending == max_pending_sets) [[unlikely]] {
        raise(kRace, api,
              "SetFlag<" + hard_event_name(src, dst) + ">(" + std::to_string(event) + ") is already set " +
                  std::to_string(pending) + " times without a WaitFlag: an event counts at most " +
                  std::to_string(max_pending_sets));
    }
    // Everything the source pipe has issued (all its instructions numbered up to seq), and
    // everything it was ordered after.
    s.clocks_raised = true;
    PipeState::Flag flag{src, dst, event, {}};
    const PipeClock& source = s.known[static_cast<std::size_t>(src)];
    for (std::size_t q = 0; q < pipe_count; ++q) flag.clock.issued[q] = std::max(s.floor, source.issued[q]);
    flag.clock.issued[static_cast<std::size_t>(src)] = s.seq;
    s.flags.push_back(flag);
}

void pipe_wait_flag(Pipe src, Pipe dst, std::int32_t event, const char* api) {
    PipeState& s = state();
    for (std::size_t i = 0; i < s.flags.size(); ++i) {
        const PipeState::Flag& flag = s.flags[i];
        if (flag.src == src && flag.dst == dst && flag.event == event) {
            std::uint32_t* knows = s.known[static_cast<std::size_t>(dst)].issued;
            for (std::size_t q = 0; q < pipe_count; ++q) knows[q] = std::max(knows[q], flag.clock.issued[q]);
            s.flags.erase(s.flags.begin() + static_cast<std::ptrdiff_t>(i));
            // Past this wait another pipe may write the GM that MTE2 read.
            if (src == Pipe::MTE2 && dst != Pipe::V) land_all_deferred_moves();
            // Past it the other pipe may read the GM that MTE3 wrote.
            if (src == Pipe::MTE3) land_all_deferred_stores();
            return;
        }
    }
    raise(kRace, api,
          "WaitFlag<" + hard_event_name(src, dst) + ">(" + std::to_string(event) +
              ") has no matching SetFlag before it: on the NPU the " + pipe_name(dst) + " pipe would wait forever");
}

void pipe_barrier_all() {
    land_all_deferred_moves();
    land_all_deferred_stores();
    PipeState& s = state();
    s.floor = s.seq;
}

void PipeState::report_flags_left_set() {
    std::string pending;
    for (const Flag& flag : flags) {
        if (!pending.empty()) pending += ", ";
        pending += "SetFlag<" + hard_event_name(flag.src, flag.dst) + ">(" + std::to_string(flag.event) + ")";
    }
    flags.clear();
    raise(kRace, "SetFlag", "flags still set when the kernel returned, never waited for: " + pending);
}

}  // namespace canopy::kernel
