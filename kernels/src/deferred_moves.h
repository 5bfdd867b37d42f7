#pragma once
// The launcher's side of the asynchronous MTE2 and MTE3 model (canopy/kernel/deferred_moves.h): the
// moves and stores one running block has issued and not landed.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "canopy/kernel/deferred_moves.h"
#include "found_slot.h"

namespace canopy::kernel {

struct DeferredMoves {
    // A move that will write UB bytes [begin, end) (or, as a store, GM bytes): a copy of GM bytes at
    // `a`, or `compute` over the GM elements at `a` and `b`. The moves of a block never overlap in
    // the UB; no store's destination overlaps another store's destination or sources.
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
    std::vector<Move> stores;
    // Where the move starting at a UB address was last found in `moves` (found_slot.h): a kernel
    // copies into the same few buffers over and over, and a hit skips the search. Checked before use
    // (a stale index names a move starting elsewhere).
    std::uint8_t found[found_slots] = {};

    // A new block: nothing deferred (keeps the vectors' capacity).
    void reset() {
        moves.clear();
        stores.clear();
        deferred_move_count = 0;
        deferred_store_count = 0;
    }
    // The block returned: its stores land, its results are computed (their float flags raised), its
    // copies dropped. Inline, as reset(): they run for every block, most often with nothing to do.
    void finish() {
        if (!stores.empty()) land_all_deferred_stores();
        if (!moves.empty()) compute_results();
        reset();
    }
    // The block failed: the stores MTE3 was given still reach GM; its moves never land.
    void abandon() {
        if (!stores.empty()) land_all_deferred_stores();
        reset();
    }

private:
    void compute_results();
};

}  // namespace canopy::kernel
