#pragma once
// Where a block's local memories live. The Unified Buffer is the launcher's per-block arena
// (current_block().ub, ub_bytes). The cube memories (L1, L0A, L0B, L0C) are per worker thread,
// allocated on first use with the capacities of the kernel's part: a thread runs one block at a time, so each
// running block has its own, and like the hardware's they keep whatever the previous block left.
#include <cstddef>
#include <memory>

#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

struct LocalMemory {
    std::byte* base = nullptr;
    std::size_t bytes = 0;
};

// Sized for the largest part, so that the one object per thread has one layout in every
// translation unit; a block sees its part's share of each (local_memory).
struct alignas(64) CubeMemories {
    std::byte l1[canopy::soc::largest(&canopy::soc::Part::l1_bytes)];
    std::byte l0a[canopy::soc::largest(&canopy::soc::Part::l0a_bytes)];
    std::byte l0b[canopy::soc::largest(&canopy::soc::Part::l0b_bytes)];
    std::byte l0c[canopy::soc::largest(&canopy::soc::Part::l0c_bytes)];
    std::byte bias_table[canopy::soc::largest(&canopy::soc::Part::bias_table_bytes)];
    std::byte fixpipe_buffer[canopy::soc::largest(&canopy::soc::Part::fixpipe_bytes)];
};

inline CubeMemories& cube_memories() {
    // Default-initialised (not zeroed): pages are only touched by blocks that use them.
    thread_local std::unique_ptr<CubeMemories> memories(new CubeMemories);
    return *memories;
}

// The running block's `hardware` memory; {nullptr, 0} for memories Canopy does not model.
inline LocalMemory local_memory(AscendC::Hardware hardware) {
    switch (hardware) {
        case AscendC::Hardware::UB: {
            const BlockContext& block = current_block();
            return {block.ub, block.ub_bytes};
        }
        case AscendC::Hardware::L1: return {cube_memories().l1, AscendC::L1_BYTES};
        case AscendC::Hardware::L0A: return {cube_memories().l0a, AscendC::L0A_BYTES};
        case AscendC::Hardware::L0B: return {cube_memories().l0b, AscendC::L0B_BYTES};
        case AscendC::Hardware::L0C: return {cube_memories().l0c, AscendC::L0C_BYTES};
        case AscendC::Hardware::BIAS: return {cube_memories().bias_table, AscendC::BIAS_TABLE_BYTES};
        case AscendC::Hardware::FIXBUF: return {cube_memories().fixpipe_buffer, AscendC::FIXPIPE_BUFFER_BYTES};
        default: return {};
    }
}

constexpr std::size_t align_up(std::size_t value, std::size_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

}  // namespace canopy::kernel::ascendc
