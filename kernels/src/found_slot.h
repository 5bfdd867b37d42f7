#pragma once
// The slot of a local-memory address in the small caches that remember where the record starting
// there was last found (PipeState::found, DeferredMoves::found). Buffers are 32-byte aligned and
// often a power of two apart (tiles of 16 KiB), so the address is hashed (Fibonacci hashing) rather
// than masked: its low bits alone put every such buffer in one slot, and each lookup missed.
#include <cstddef>
#include <cstdint>

namespace canopy::kernel {

inline constexpr std::size_t found_slots = 16;

inline std::size_t found_slot(std::uintptr_t address) {
    static_assert(found_slots == 16, "the shift keeps the top four bits of the product");
    return static_cast<std::size_t>(((address >> 5) * 0x9E3779B97F4A7C15ull) >> 60);
}

}  // namespace canopy::kernel
