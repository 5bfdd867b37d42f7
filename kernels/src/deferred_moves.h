#pragma once
// The launcher's side of the asynchronous MTE2 model (canopy/kernel/deferred_moves.h): the moves one
// running block has issued and not landed.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "canopy/kernel/deferred_moves.h"

namespace canopy::kernel {

struct DeferredMoves {
    // A move that will write UB bytes [begin, end): a copy of GM bytes at `a`, or `compute` over the
    // GM elements at `a` and `b`. The moves of a block never overlap in the UB.
    struct Move {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        const std::byte* a = nullptr;
        const std::byte* b = nullptr;
        DeferredElementwise compute = nullptr;  // nullptr: a copy
        std::uint32_t element_bytes = 1;
        alignas(std::max_align_t) unsigned char operation[deferred_operation_bytes] = {};
    };
    std::vector<Move> moves;

    // A new block: nothing deferred (keeps the vector's capacity).
    void reset() {
        moves.clear();
        deferred_move_count = 0;
    }
    // The block returned: its results are computed (their float flags raised), its copies dropped.
    // Inline, as reset(): they run for every block, most often with nothing to do.
    void finish() {
        if (!moves.empty()) compute_results();
        reset();
    }

private:
    void compute_results();
};

}  // namespace canopy::kernel
