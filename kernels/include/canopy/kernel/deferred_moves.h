#pragma once
// The asynchronous MTE2 model. On the NPU a GM -> UB DataCopy only starts a move: the MTE2 pipe
// lands the bytes some time before the synchronization that orders their first reader after it.
// Canopy does the same: a contiguous GM -> UB copy is recorded, not made, and lands when something
// needs the UB bytes. A vector instruction whose sources are all such moves computes straight from
// global memory instead, and is itself recorded; a copy of its result back to GM then computes into
// GM directly. A kernel that streams tiles through the UB (copy in, compute, copy out) thus touches
// each element once, as a fused loop would, instead of three times.
//
// What a race-free kernel observes is unchanged: a deferred move lands before
//  - any instruction other than the two above touches its UB bytes (the pipe model sees every
//    instruction's operands: pipe_instruction lands what they overlap),
//  - a raw pointer or reference into the UB escapes (LocalTensor::GetPhyAddr, operator()),
//  - global memory under its sources is written through a GlobalTensor (GlobalTensor::CheckedSpan;
//    store_deferred for a copy to GM recorded as a store) or WriteGmByPassDCache,
//  - a synchronization lets another pipe or core act on GM after MTE2 (PipeBarrier<PIPE_ALL>,
//    WaitFlag from MTE2 to a pipe other than V, SyncAll, the cross-core flags, IBSet/IBWait).
// A deferred result is computed when its block ends even if nothing read it, so that its float
// status flags (overflow detection) are raised as the NPU raises them.
//
// MTE3 is asynchronous too: a UB -> GM DataCopy of bytes a deferred move holds is recorded as a
// store of those GM sources (or of their computation) into GM, and a store continuing the block's
// last one (the next tile of the same stream) extends it. A block that streams its tiles thus runs
// its API calls first and then one loop over its whole range, as a fused loop would. A store lands
// before
//  - any GM access through a GlobalTensor overlaps its destination, or writes its sources
//    (GlobalTensor::CheckedSpan, the bypassing reads and writes of cache.h), or a move or a store
//    reads its destination (a deferred copy in reads GM when it lands, not when it is issued),
//  - a raw GM address escapes (GlobalTensor::GetPhyAddr), or DataCacheCleanAndInvalid runs on GM,
//  - a synchronization orders another pipe or core after MTE3 (WaitFlag from MTE3, PipeBarrier<PIPE_ALL>,
//    SyncAll, the cross-core flags, IBSet/IBWait),
//  - its block ends, whether the block returned or failed (what MTE3 was given reaches GM).
#include <cstdint>

#include "canopy/kernel/block.h"

namespace canopy::kernel {

// The running block's deferred moves (0 outside kernels): the inline paths test it before calling in.
// Initial-exec, as libascendcl's own block state: the library is a link dependency of every program
// that runs kernels, so its TLS is in the static block and a test is one load, not a call (__thread:
// see detail::running_block).
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread std::uint32_t deferred_move_count;
// The running block's deferred stores (0 outside kernels), tested the same way.
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread std::uint32_t deferred_store_count;

// `count` elements computed from a and b into dst by a recorded instruction (its operation object
// copied into the record).
using DeferredElementwise = void (*)(void* dst, const void* a, const void* b, std::int64_t count,
                                     const void* operation);
inline constexpr std::size_t deferred_operation_bytes = 16;

// Records a GM -> UB copy of `bytes` contiguous bytes, already issued to the pipe model.
CANOPY_KERNEL_API void defer_copy_in(void* ub, const void* gm, std::uint64_t bytes);

// The GM bytes that a deferred copy will land at [ub, ub + bytes), when one copy covers them all;
// nullptr otherwise.
CANOPY_KERNEL_API const void* deferred_source(const void* ub, std::uint64_t bytes);

// Records an elementwise instruction writing `count` elements of `element_bytes` at `ub` from the
// GM sources a and b (each from deferred_source), already issued to the pipe model.
CANOPY_KERNEL_API void defer_elementwise(void* ub, std::int64_t count, std::uint32_t element_bytes,
                                         DeferredElementwise compute, const void* a, const void* b,
                                         const void* operation, std::size_t operation_bytes);

// A copy of [ub, ub + bytes) to GM at `gm`, issued to the pipe model already. Lands what a write of
// that GM must not pass (before_gm_access); then, when one deferred move covers the UB bytes in
// whole elements, records a store of the bytes it will land there (GM under its sources has not been
// written since: such a write lands it) and returns true; otherwise records nothing and returns
// false, for the caller to make the copy.
CANOPY_KERNEL_API bool store_deferred(void* gm, const void* ub, std::uint64_t bytes);

// Lands the deferred moves overlapping [ub, ub + bytes).
CANOPY_KERNEL_API void land_deferred_moves(const void* ub, std::uint64_t bytes);

// Lands every deferred move of the running block.
CANOPY_KERNEL_API void land_all_deferred_moves();

// Global memory at [gm, gm + bytes) is about to be written: lands the moves reading it.
CANOPY_KERNEL_API void land_deferred_moves_reading(const void* gm, std::uint64_t bytes);

// Global memory at [gm, gm + bytes) is about to be read (or written): lands the stores writing it
// (or reading it).
CANOPY_KERNEL_API void land_deferred_stores_touching(const void* gm, std::uint64_t bytes, bool write);

// Lands every deferred store of the running block.
CANOPY_KERNEL_API void land_all_deferred_stores();

// What every GM access of a kernel does first: the deferred moves and stores it must not pass land.
inline void before_gm_access(const void* gm, std::uint64_t bytes, bool write) {
    if (write && deferred_move_count != 0) land_deferred_moves_reading(gm, bytes);
    if (deferred_store_count != 0) land_deferred_stores_touching(gm, bytes, write);
}

}  // namespace canopy::kernel
