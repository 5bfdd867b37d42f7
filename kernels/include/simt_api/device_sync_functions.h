#pragma once
// CANN's simt_api/device_sync_functions.h: the block barrier and the memory fences.
#include <atomic>

#include "simt_api/device_types.h"

// Waits until every thread of the block has called it; a thread that returns without reaching a
// barrier other threads wait at, or a barrier no thread can pass, fails the launch.
inline void asc_syncthreads() { ::canopy::kernel::simt::sync_threads(); }
// Orders the caller's memory accesses before and after it, for every observer (GM: other blocks).
inline void asc_threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void asc_threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
