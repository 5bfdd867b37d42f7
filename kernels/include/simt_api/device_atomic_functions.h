#pragma once
// CANN's simt_api/device_atomic_functions.h: atomics on UB and GM. Each returns the value the address
// held before. They are atomic for every observer: the blocks of a launch run on several workers.
#include <cstdint>
#include <type_traits>

#include "simt_api/device_types.h"

namespace canopy::kernel::simt::detail {

// Replaces *address by update(*address) atomically; returns the old value.
template <class T, class Update>
T atomic_update(T* address, Update update) {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                  "SIMT atomics work on 1-, 2-, 4- and 8-byte values");
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    for (;;) {
        T desired = update(old);
        if (__atomic_compare_exchange(address, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old;
    }
}

// The value parameters take the address's type, so that asc_atomic_add(counter, 1) on a uint32_t*
// converts the literal instead of failing deduction.
template <class T>
struct same_type {
    using type = T;
};
template <class T>
using value_of = typename same_type<T>::type;

}  // namespace canopy::kernel::simt::detail

template <class T>
inline T asc_atomic_add(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST);
    else return ::canopy::kernel::simt::detail::atomic_update(address, [&](T old) { return T(old + val); });
}
template <class T>
inline T asc_atomic_sub(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    if constexpr (std::is_integral_v<T>) return __atomic_fetch_sub(address, val, __ATOMIC_SEQ_CST);
    else return ::canopy::kernel::simt::detail::atomic_update(address, [&](T old) { return T(old - val); });
}
template <class T>
inline T asc_atomic_exch(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return ::canopy::kernel::simt::detail::atomic_update(address, [&](T) { return val; });
}
template <class T>
inline T asc_atomic_max(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return ::canopy::kernel::simt::detail::atomic_update(address, [&](T old) { return old < val ? val : old; });
}
template <class T>
inline T asc_atomic_min(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return ::canopy::kernel::simt::detail::atomic_update(address, [&](T old) { return val < old ? val : old; });
}
template <class T>
inline T asc_atomic_and(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return __atomic_fetch_and(address, val, __ATOMIC_SEQ_CST);
}
template <class T>
inline T asc_atomic_or(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return __atomic_fetch_or(address, val, __ATOMIC_SEQ_CST);
}
template <class T>
inline T asc_atomic_xor(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return __atomic_fetch_xor(address, val, __ATOMIC_SEQ_CST);
}
// ((old >= val) ? 0 : old + 1)
template <class T>
inline T asc_atomic_inc(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return ::canopy::kernel::simt::detail::atomic_update(address, [&](T old) { return old >= val ? T(0) : T(old + 1); });
}
// ((old == 0) || (old > val)) ? val : old - 1
template <class T>
inline T asc_atomic_dec(T* address, ::canopy::kernel::simt::detail::value_of<T> val) {
    return ::canopy::kernel::simt::detail::atomic_update(address,
                                                        [&](T old) { return (old == T(0) || old > val) ? val : T(old - 1); });
}
// Stores val where *address equals compare; returns the old value either way.
template <class T>
inline T asc_atomic_cas(T* address, ::canopy::kernel::simt::detail::value_of<T> compare, ::canopy::kernel::simt::detail::value_of<T> val) {
    T expected = compare;
    __atomic_compare_exchange(address, &expected, &val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
