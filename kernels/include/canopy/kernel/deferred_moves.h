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
//  - global memory under its sources is written through a GlobalTensor (GlobalTensor::CheckedSpan)
//    or WriteGmByPassDCache,
//  - a synchronization lets another pipe or core act on GM after MTE2 (PipeBarrier<PIPE_ALL>,
//    WaitFlag from MTE2 to a pipe other than V, SyncAll, the cross-core flags, IBSet/IBWait).
// A deferred result is computed when its block ends even if nothing read it, so that its float
// status flags (overflow detection) are raised as the NPU raises them.
#include <cstdint>

#include "canopy/kernel/block.h"

namespace canopy::kernel {

// The running block's deferred moves (0 outside kernels): the inline paths test it before calling in.
// Initial-exec, as libascendcl's own block state: the library is a link dependency of every program
// that runs kernels, so its TLS is in the static block and a test is one load, not a call.
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) thread_local std::uint32_t deferred_move_count;

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

// When one deferred move covers [ub, ub + bytes) in whole elements, writes into GM at `gm` the bytes
// it will land there (GM under its sources has not been written since: such a write lands it) and
// returns true; otherwise writes nothing and returns false. Issued to the pipe model already.
CANOPY_KERNEL_API bool store_deferred(void* gm, const void* ub, std::uint64_t bytes);

// Lands the deferred moves overlapping [ub, ub + bytes).
CANOPY_KERNEL_API void land_deferred_moves(const void* ub, std::uint64_t bytes);

// Lands every deferred move of the running block.
CANOPY_KERNEL_API void land_all_deferred_moves();

// Global memory at [gm, gm + bytes) is about to be written: lands the moves reading it.
CANOPY_KERNEL_API void land_deferred_moves_reading(const void* gm, std::uint64_t bytes);

}  // namespace canopy::kernel
