// The asynchronous MTE2 and MTE3 model (canopy/kernel/deferred_moves.h).
#include "deferred_moves.h"

#include <algorithm>
#include <cstring>

namespace canopy::kernel {

CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread std::uint32_t deferred_move_count = 0;
CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread std::uint32_t deferred_store_count = 0;

namespace {

// More would make every instruction's overlap test long; the first one lands then. Moves are
// disjoint in the UB and read only GM, which landing does not write: their order does not matter.
// Stores neither overlap nor read each other's destinations (a store that would lands the others
// first): their order does not matter either.
constexpr std::size_t kMaxMoves = 16;
constexpr std::size_t kMaxStores = 16;

using Move = DeferredMoves::Move;

std::vector<Move>& moves() { return current_block().moves->moves; }
std::vector<Move>& stores() { return current_block().moves->stores; }

void sync_count(const std::vector<Move>& list) { deferred_move_count = static_cast<std::uint32_t>(list.size()); }
void sync_store_count(const std::vector<Move>& list) {
    deferred_store_count = static_cast<std::uint32_t>(list.size());
}

std::uintptr_t address(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// Writes the move's bytes at `to` (its UB range, or a store's GM range).
void write_out(const Move& move, void* to) {
    const std::uint64_t bytes = move.end - move.begin;
    if (move.compute) {
        move.compute(to, move.a, move.b, static_cast<std::int64_t>(bytes / move.element_bytes), move.operation);
    } else {
        std::memmove(to, move.a, bytes);
    }
}

bool overlaps(const Move& move, std::uintptr_t begin, std::uintptr_t end) {
    return move.begin < end && begin < move.end;
}

// Whether a move or a store reads GM in [begin, end) (a store's destination, when asking whether
// that store writes what this one reads).
bool reads(const Move& move, std::uintptr_t begin, std::uintptr_t end) {
    const std::uintptr_t bytes = move.end - move.begin;
    const auto a = address(move.a);
    if (a < end && begin < a + bytes) return true;
    const auto b = address(move.b);
    return move.b != nullptr && b < end && begin < b + bytes;
}

template <typename Predicate>
void land_stores_if(Predicate lands);

void land(const Move& move) {
    // A move may read GM a store has not written yet (a copy of a stored result).
    if (deferred_store_count != 0) {
        land_stores_if([&](const Move& store) { return reads(move, store.begin, store.end); });
    }
    write_out(move, reinterpret_cast<void*>(move.begin));
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

// Where the move starting at `begin` was last found in moves() (DeferredMoves::found).
std::uint8_t& found_index(std::uintptr_t begin) {
    return current_block().moves->found[found_slot(begin)];
}

// The move covering [begin, end), if one does.
Move* covering(std::uintptr_t begin, std::uintptr_t end) {
    std::vector<Move>& list = moves();
    std::uint8_t& found = found_index(begin);
    if (found < list.size() && list[found].begin == begin && end <= list[found].end) return &list[found];
    for (Move& move : list) {
        if (move.begin <= begin && end <= move.end) return &move;
    }
    return nullptr;
}

// The record for a move that will write [begin, end), for the caller to fill whole. A buffer reused
// as a whole (the common case) gives the old move's record; filled in place, not copied, since a
// record is built field by field and read back whole.
Move& claim(std::uintptr_t begin, std::uintptr_t end) {
    std::vector<Move>& list = moves();
    std::uint8_t& found = found_index(begin);
    if (found >= list.size() || list[found].begin != begin || list[found].end != end) {
        clear_range(list, begin, end, true);
        if (list.size() == kMaxMoves) {
            land(list.front());
            list.front() = list.back();
            list.pop_back();
        }
        list.emplace_back();
        sync_count(list);
        found = static_cast<std::uint8_t>(list.size() - 1);
        return list.back();
    }
    Move& old = list[found];
    if (!droppable(old, begin, end)) land(old);
    return old;
}

// Lands the stores for which `lands` holds (their order does not matter: see kMaxStores).
template <typename Predicate>
void land_stores_if(Predicate lands) {
    std::vector<Move>& list = stores();
    for (std::size_t i = 0; i < list.size();) {
        if (!lands(list[i])) {
            ++i;
            continue;
        }
        const Move store = list[i];
        list[i] = list.back();
        list.pop_back();
        write_out(store, reinterpret_cast<void*>(store.begin));
    }
    sync_store_count(list);
}

// Whether two records hold the same operation object, compared as words (a libc memcmp call was a
// share of a streamed tile's cost).
bool same_operation(const Move& a, const Move& b) {
    static_assert(deferred_operation_bytes == 2 * sizeof(std::uint64_t));
    std::uint64_t x[2], y[2];
    std::memcpy(x, a.operation, sizeof x);
    std::memcpy(y, b.operation, sizeof y);
    return x[0] == y[0] && x[1] == y[1];
}

// Whether `next` continues `last`: the same operation over the bytes that follow in every operand.
bool continues(const Move& last, const Move& next) {
    const std::uintptr_t bytes = last.end - last.begin;
    return last.compute == next.compute && last.element_bytes == next.element_bytes && last.end == next.begin &&
           last.a + bytes == next.a && (last.b ? last.b + bytes == next.b : next.b == nullptr) &&
           same_operation(last, next);
}

void record_store(const Move& store) {
    // Program order between stores: one that reads what this one writes, or writes what it writes
    // or reads, lands first.
    land_stores_if([&](const Move& other) {
        return overlaps(other, store.begin, store.end) || reads(other, store.begin, store.end) ||
               reads(store, other.begin, other.end);
    });
    std::vector<Move>& list = stores();
    if (!list.empty() && continues(list.back(), store)) {
        list.back().end = store.end;
        return;
    }
    if (list.size() == kMaxStores) {
        write_out(list.front(), reinterpret_cast<void*>(list.front().begin));
        list.front() = list.back();
        list.pop_back();
    }
    list.push_back(store);
    sync_store_count(list);
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
    land_deferred_moves_reading(gm, bytes);
    const std::uintptr_t begin = address(ub);
    Move* move = covering(begin, begin + bytes);
    const std::uint64_t offset = move ? begin - move->begin : 0;
    if (!move || offset % move->element_bytes != 0 || bytes % move->element_bytes != 0) {
        land_deferred_stores_touching(gm, bytes, true);
        return false;
    }
    // record_store lands the stores this one must not pass.
    Move store = *move;
    store.begin = address(gm);
    store.end = store.begin + bytes;
    store.a = move->a + offset;
    store.b = move->b ? move->b + offset : nullptr;
    record_store(store);
    if (move->compute && offset == 0 && bytes == move->end - move->begin) {
        // The UB bytes will equal these GM bytes: the move becomes a copy of them, computed once
        // (landing it lands the store first).
        move->a = static_cast<const std::byte*>(gm);
        move->b = nullptr;
        move->compute = nullptr;
        move->element_bytes = 1;
    }
    return true;
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

void land_deferred_stores_touching(const void* gm, std::uint64_t bytes, bool write) {
    const std::uintptr_t begin = address(gm);
    const std::uintptr_t end = begin + bytes;
    land_stores_if(
        [&](const Move& store) { return overlaps(store, begin, end) || (write && reads(store, begin, end)); });
}

void land_all_deferred_stores() {
    if (deferred_store_count == 0) return;
    land_stores_if([](const Move&) { return true; });
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
