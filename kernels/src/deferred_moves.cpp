// The asynchronous MTE2 model (canopy/kernel/deferred_moves.h).
#include "deferred_moves.h"

#include <algorithm>
#include <cstring>

namespace canopy::kernel {

CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) thread_local std::uint32_t deferred_move_count = 0;

namespace {

// More would make every instruction's overlap test long; the first one lands then. Moves are
// disjoint in the UB and read only GM, which landing does not write: their order does not matter.
constexpr std::size_t kMaxMoves = 16;

using Move = DeferredMoves::Move;

std::vector<Move>& moves() { return current_block().moves->moves; }

void sync_count(const std::vector<Move>& list) { deferred_move_count = static_cast<std::uint32_t>(list.size()); }

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

void land(const Move& move) {
    auto* ub = reinterpret_cast<std::byte*>(move.begin);
    const std::uint64_t bytes = move.end - move.begin;
    if (move.compute) {
        move.compute(ub, move.a, move.b, static_cast<std::int64_t>(bytes / move.element_bytes), move.operation);
    } else {
        std::memcpy(ub, move.a, bytes);
    }
}

bool overlaps(const Move& move, std::uintptr_t begin, std::uintptr_t end) { return move.begin < end && begin < move.end; }

bool reads(const Move& move, std::uintptr_t begin, std::uintptr_t end) {
    const std::uintptr_t bytes = move.end - move.begin;
    const auto a = address(move.a);
    if (a < end && begin < a + bytes) return true;
    const auto b = address(move.b);
    return move.b != nullptr && b < end && begin < b + bytes;
}

// Whether a move can be dropped unlanded when [begin, end) is overwritten: a copy inside the range.
// A computation is made even then, for the float status it raises (overflow detection).
bool droppable(const Move& move, std::uintptr_t begin, std::uintptr_t end) {
    return !move.compute && begin <= move.begin && move.end <= end;
}

// Lands the moves whose UB bytes overlap [begin, end), except that when the caller overwrites the
// whole range the copies inside it are dropped.
void clear_range(std::vector<Move>& list, std::uintptr_t begin, std::uintptr_t end, bool overwritten) {
    for (std::size_t i = 0; i < list.size();) {
        const Move& move = list[i];
        if (!overlaps(move, begin, end)) {
            ++i;
            continue;
        }
        if (!(overwritten && droppable(move, begin, end))) land(move);
        list[i] = list.back();
        list.pop_back();
    }
    sync_count(list);
}

const Move* covering(std::uintptr_t begin, std::uintptr_t end) {
    for (const Move& move : moves()) {
        if (move.begin <= begin && end <= move.end) return &move;
    }
    return nullptr;
}

// The record for a move that will write [begin, end), for the caller to fill whole. A buffer reused
// as a whole (the common case) gives the old move's record; filled in place, not copied, since a
// record is built field by field and read back whole.
Move& claim(std::uintptr_t begin, std::uintptr_t end) {
    std::vector<Move>& list = moves();
    for (Move& old : list) {
        if (old.begin != begin || old.end != end) continue;
        if (!droppable(old, begin, end)) land(old);
        return old;
    }
    clear_range(list, begin, end, true);
    if (list.size() == kMaxMoves) {
        land(list.front());
        list.front() = list.back();
        list.pop_back();
    }
    list.emplace_back();
    sync_count(list);
    return list.back();
}

}  // namespace

void DeferredMoves::compute_results() {
    for (const Move& move : moves) {
        if (move.compute) land(move);
    }
}

void defer_copy_in(void* ub, const void* gm, std::uint64_t bytes) {
    if (bytes == 0) return;
    Move& move = claim(address(ub), address(ub) + bytes);
    move.begin = address(ub);
    move.end = move.begin + bytes;
    move.a = static_cast<const std::byte*>(gm);
    move.b = nullptr;
    move.compute = nullptr;
    move.element_bytes = 1;
}

const void* deferred_source(const void* ub, std::uint64_t bytes) {
    const Move* move = covering(address(ub), address(ub) + bytes);
    if (!move || move->compute) return nullptr;
    return move->a + (address(ub) - move->begin);
}

void defer_elementwise(void* ub, std::int64_t count, std::uint32_t element_bytes, DeferredElementwise compute,
                       const void* a, const void* b, const void* operation, std::size_t operation_bytes) {
    if (count <= 0) return;
    const std::uintptr_t end = address(ub) + std::uint64_t(count) * element_bytes;
    Move& move = claim(address(ub), end);
    move.begin = address(ub);
    move.end = end;
    move.a = static_cast<const std::byte*>(a);
    move.b = static_cast<const std::byte*>(b);
    move.compute = compute;
    move.element_bytes = element_bytes;
    std::memcpy(move.operation, operation, std::min(operation_bytes, deferred_operation_bytes));
}

bool store_deferred(void* gm, const void* ub, std::uint64_t bytes) {
    const std::uintptr_t begin = address(ub);
    for (Move& move : moves()) {
        if (!(move.begin <= begin && begin + bytes <= move.end)) continue;
        const std::uint64_t offset = begin - move.begin;
        if (offset % move.element_bytes != 0 || bytes % move.element_bytes != 0) return false;
        if (!move.compute) {
            std::memmove(gm, move.a + offset, bytes);
            return true;
        }
        move.compute(gm, move.a + offset, move.b + offset, static_cast<std::int64_t>(bytes / move.element_bytes),
                     move.operation);
        if (offset == 0 && bytes == move.end - move.begin) {
            // The UB bytes now equal these GM bytes: the move becomes a copy of them, computed once.
            move.a = static_cast<const std::byte*>(gm);
            move.b = nullptr;
            move.compute = nullptr;
            move.element_bytes = 1;
        }
        return true;
    }
    return false;
}

void land_deferred_moves(const void* ub, std::uint64_t bytes) {
    clear_range(moves(), address(ub), address(ub) + bytes, false);
}

void land_all_deferred_moves() {
    if (deferred_move_count == 0) return;
    std::vector<Move>& list = moves();
    for (const Move& move : list) land(move);
    list.clear();
    sync_count(list);
}

void land_deferred_moves_reading(const void* gm, std::uint64_t bytes) {
    std::vector<Move>& list = moves();
    const std::uintptr_t begin = address(gm);
    const std::uintptr_t end = begin + bytes;
    for (std::size_t i = 0; i < list.size();) {
        if (!reads(list[i], begin, end)) {
            ++i;
            continue;
        }
        land(list[i]);
        list[i] = list.back();
        list.pop_back();
    }
    sync_count(list);
}

}  // namespace canopy::kernel
