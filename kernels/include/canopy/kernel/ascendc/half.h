#pragma once
// The kernels' `half`. On the NPU it is a native arithmetic type of the compiler: it converts
// implicitly from and to every arithmetic type (`half scalar = 0.01;`, `float f = h;`), and mixing it
// with other arithmetic types follows the usual arithmetic conversions, as for any floating type
// narrower than float: half op integer is half, half op float is float, half op double is double.
// Eigen::half converts from numbers only explicitly, so kernel sources written for the NPU compiler
// do not compile against it. This type is an Eigen::half (same storage, same rounding, usable
// wherever an Eigen::half is expected) that adds the native type's implicit conversions and
// operators, and is an Eigen scalar so that the UB tiles of half map to Eigen arrays unchanged.
#include <cstdint>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

namespace canopy::kernel::ascendc {

struct Half : Eigen::half {
    Half() = default;
    constexpr Half(const Eigen::half& value) : Eigen::half(value) {}
    // From any arithmetic value, rounded to nearest even as a conversion to the native type is.
    template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    Half(T value) : Eigen::half(static_cast<float>(value)) {}
    constexpr Half(const Eigen::half_impl::__half_raw& raw) : Eigen::half(raw) {}
    // To other arithmetic types: through the inherited implicit operator float, which is exact.

    Half& operator++() { return *this = Half(static_cast<float>(*this) + 1.0f); }
    Half& operator--() { return *this = Half(static_cast<float>(*this) - 1.0f); }
    Half operator++(int) {
        Half before = *this;
        ++*this;
        return before;
    }
    Half operator--(int) {
        Half before = *this;
        --*this;
        return before;
    }
};

// Tensors of half are copied as bytes and mapped as Eigen::half storage.
static_assert(sizeof(Half) == sizeof(Eigen::half) && std::is_trivially_copyable_v<Half>);

// How a half meets another arithmetic type, as the usual arithmetic conversions have it for a
// floating type of lower rank than float: an integer becomes a half first (and the result is half),
// float and double win (the half widens exactly).
template <typename T>
using half_mixed_t = std::conditional_t<std::is_integral_v<T>, Half, std::common_type_t<float, T>>;

template <typename T>
constexpr bool half_operand = std::is_arithmetic_v<T>;

template <typename T>
inline half_mixed_t<T> half_widen(T value) {
    if constexpr (std::is_integral_v<T>) return Half(value);
    else return value;
}

// Every half result is the exact float result rounded once, which is what the native half's
// arithmetic gives (float holds the exact sum, difference and product of two halves and rounds
// their quotient correctly for the final rounding to half).
#define CANOPY_HALF_ARITHMETIC(op)                                                                        \
    inline Half operator op(Half a, Half b) { return Half(static_cast<float>(a) op static_cast<float>(b)); } \
    template <typename T, std::enable_if_t<half_operand<T>, int> = 0>                                     \
    inline half_mixed_t<T> operator op(Half a, T b) {                                                     \
        if constexpr (std::is_integral_v<T>) return a op Half(b);                                         \
        else return static_cast<half_mixed_t<T>>(static_cast<float>(a)) op b;                             \
    }                                                                                                     \
    template <typename T, std::enable_if_t<half_operand<T>, int> = 0>                                     \
    inline half_mixed_t<T> operator op(T a, Half b) {                                                     \
        if constexpr (std::is_integral_v<T>) return Half(a) op b;                                         \
        else return a op static_cast<half_mixed_t<T>>(static_cast<float>(b));                             \
    }                                                                                                     \
    template <typename T, std::enable_if_t<half_operand<T> || std::is_same_v<T, Half>, int> = 0>          \
    inline Half& operator op##=(Half & a, T b) {                                                          \
        return a = Half(a op b);                                                                          \
    }
CANOPY_HALF_ARITHMETIC(+)
CANOPY_HALF_ARITHMETIC(-)
CANOPY_HALF_ARITHMETIC(*)
CANOPY_HALF_ARITHMETIC(/)
#undef CANOPY_HALF_ARITHMETIC

#define CANOPY_HALF_COMPARISON(op)                                                                        \
    inline bool operator op(Half a, Half b) { return static_cast<float>(a) op static_cast<float>(b); }     \
    template <typename T, std::enable_if_t<half_operand<T>, int> = 0>                                     \
    inline bool operator op(Half a, T b) {                                                                \
        return half_widen(static_cast<float>(a)) op half_widen(b);                                        \
    }                                                                                                     \
    template <typename T, std::enable_if_t<half_operand<T>, int> = 0>                                     \
    inline bool operator op(T a, Half b) {                                                                \
        return half_widen(a) op half_widen(static_cast<float>(b));                                        \
    }
CANOPY_HALF_COMPARISON(==)
CANOPY_HALF_COMPARISON(!=)
CANOPY_HALF_COMPARISON(<)
CANOPY_HALF_COMPARISON(<=)
CANOPY_HALF_COMPARISON(>)
CANOPY_HALF_COMPARISON(>=)
#undef CANOPY_HALF_COMPARISON

inline Half operator-(Half a) { return Half(-static_cast<const Eigen::half&>(a)); }
inline Half operator+(Half a) { return a; }

}  // namespace canopy::kernel::ascendc

// Eigen sees the same scalar as Eigen::half, typed as Half so that expressions stay in Half.
namespace Eigen {
template <>
struct NumTraits<canopy::kernel::ascendc::Half> : NumTraits<Eigen::half> {
    using Real = canopy::kernel::ascendc::Half;
    using NonInteger = canopy::kernel::ascendc::Half;
    using Literal = canopy::kernel::ascendc::Half;
    using Nested = canopy::kernel::ascendc::Half;
    static Real epsilon() { return NumTraits<Eigen::half>::epsilon(); }
    static Real dummy_precision() { return NumTraits<Eigen::half>::dummy_precision(); }
    static Real highest() { return NumTraits<Eigen::half>::highest(); }
    static Real lowest() { return NumTraits<Eigen::half>::lowest(); }
    static Real infinity() { return NumTraits<Eigen::half>::infinity(); }
    static Real quiet_NaN() { return NumTraits<Eigen::half>::quiet_NaN(); }
};
}  // namespace Eigen

namespace std {
template <>
class numeric_limits<canopy::kernel::ascendc::Half> : public numeric_limits<Eigen::half> {};
}  // namespace std
