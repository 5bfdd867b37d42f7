#pragma once
// CANN's simt_api/device_warp_functions.h: the warp collectives. Every live lane of the caller's warp
// takes part; a lane waits until all have arrived (canopy::kernel::simt::warp_exchange).
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "acl/error_codes/rt_error_codes.h"
#include "simt_api/device_types.h"

namespace canopy::kernel::simt::detail {

template <class T>
std::uint64_t to_bits(T value) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp collective moves values of up to 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <class T>
T from_bits(std::uint64_t bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}
inline std::uint32_t lane() { return thread().linear % warp_size; }

// The value of lane `source` (within the caller's width-lane segment), or the caller's own where
// `source` lies outside it.
template <class T>
T shuffle(const char* api, T var, std::int64_t source, std::int32_t width, bool clamp_own) {
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "width " + std::to_string(width) + " is not a power of two in [1, 32]");
    }
    const WarpValues values = warp_exchange(api, to_bits(var));
    const std::int64_t me = lane();
    const std::int64_t base = me & ~std::int64_t(width - 1);
    if (clamp_own && (source < base || source >= base + width)) return var;
    const std::int64_t from = base + (source & (width - 1));
    if (from >= std::int64_t(values.lanes)) return var;
    return from_bits<T>(values.values[from]);
}

template <class T, class Combine>
T reduce(const char* api, T value, Combine combine) {
    const WarpValues values = warp_exchange(api, to_bits(value));
    bool first = true;
    T result{};
    for (std::uint32_t i = 0; i < values.lanes; ++i) {
        if ((values.active >> i & 1u) == 0) continue;
        const T v = from_bits<T>(values.values[i]);
        result = first ? v : combine(result, v);
        first = false;
    }
    return result;
}

}  // namespace canopy::kernel::simt::detail

template <class T>
inline T asc_shfl(T var, std::int32_t src_lane, std::int32_t width = warpSize) {
    return ::canopy::kernel::simt::detail::shuffle("asc_shfl", var, src_lane, width, false);
}
template <class T>
inline T asc_shfl_up(T var, std::uint32_t delta, std::int32_t width = warpSize) {
    return ::canopy::kernel::simt::detail::shuffle(
        "asc_shfl_up", var, std::int64_t(::canopy::kernel::simt::detail::lane()) - std::int64_t(delta), width, true);
}
template <class T>
inline T asc_shfl_down(T var, std::uint32_t delta, std::int32_t width = warpSize) {
    return ::canopy::kernel::simt::detail::shuffle(
        "asc_shfl_down", var, std::int64_t(::canopy::kernel::simt::detail::lane()) + std::int64_t(delta), width, true);
}
template <class T>
inline T asc_shfl_xor(T var, std::int32_t lane_mask, std::int32_t width = warpSize) {
    return ::canopy::kernel::simt::detail::shuffle(
        "asc_shfl_xor", var, std::int64_t(::canopy::kernel::simt::detail::lane() ^ std::uint32_t(lane_mask)), width, true);
}

// Votes: over the lanes that take part.
inline std::uint32_t asc_ballot(std::int32_t predicate) {
    const auto values = ::canopy::kernel::simt::warp_exchange("asc_ballot", predicate != 0);
    std::uint32_t mask = 0;
    for (std::uint32_t i = 0; i < values.lanes; ++i) mask |= std::uint32_t(values.values[i] != 0) << i;
    return mask & values.active;
}
inline std::int32_t asc_all(std::int32_t predicate) {
    const auto values = ::canopy::kernel::simt::warp_exchange("asc_all", predicate != 0);
    for (std::uint32_t i = 0; i < values.lanes; ++i)
        if ((values.active >> i & 1u) && values.values[i] == 0) return 0;
    return 1;
}
inline std::int32_t asc_any(std::int32_t predicate) { return asc_ballot(predicate) != 0; }
inline std::uint32_t asc_activemask() { return ::canopy::kernel::simt::warp_exchange("asc_activemask", 0).active; }

template <class T>
inline T asc_reduce_add(T val) {
    return ::canopy::kernel::simt::detail::reduce("asc_reduce_add", val, [](T a, T b) { return T(a + b); });
}
template <class T>
inline T asc_reduce_max(T val) {
    return ::canopy::kernel::simt::detail::reduce("asc_reduce_max", val, [](T a, T b) { return a < b ? b : a; });
}
template <class T>
inline T asc_reduce_min(T val) {
    return ::canopy::kernel::simt::detail::reduce("asc_reduce_min", val, [](T a, T b) { return b < a ? b : a; });
}
