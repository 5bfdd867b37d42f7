#pragma once
// CANN's simt_api/device_functions.h: the cache-hinted loads and stores (on a CPU, ordinary accesses:
// the hint selects a cache policy of the 950's L1 / L2, which the CPU's caches do not take), laneid,
// and the barrier, warp and atomic families it includes.
#include <cstdint>

#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_sync_functions.h"
#include "simt_api/device_types.h"
#include "simt_api/device_warp_functions.h"

// Loads: cache global (ldcg), cache all (ldca), streaming (ldcs), last use (ldlu), volatile (ldcv).
template <class T>
inline T asc_ldcg(T* address) { return *address; }
template <class T>
inline T asc_ldca(T* address) { return *address; }
template <class T>
inline T asc_ldcs(T* address) { return *address; }
template <class T>
inline T asc_ldlu(T* address) { return *address; }
template <class T>
inline T asc_ldcv(T* address) { return *static_cast<volatile T*>(address); }
// Stores: cache global (stcg), write through (stwt), streaming (stcs), write back (stwb).
template <class T>
inline void asc_stcg(T* address, T val) { *address = val; }
template <class T>
inline void asc_stwt(T* address, T val) { *address = val; }
template <class T>
inline void asc_stcs(T* address, T val) { *address = val; }
template <class T>
inline void asc_stwb(T* address, T val) { *address = val; }

// The caller's lane in its warp.
static inline std::int32_t laneid() { return static_cast<std::int32_t>(::canopy::kernel::simt::thread().linear % 32); }
// Masks of the lanes below, at or below, above, at or above the caller's lane.
static inline std::uint32_t lanemask_lt() { return (1u << laneid()) - 1u; }
static inline std::uint32_t lanemask_le() { return static_cast<std::uint32_t>((std::uint64_t{2} << laneid()) - 1u); }
static inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }
static inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
static inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
