// op::fp16_t, CANN's host-side IEEE half (opdev/fp16_t.h; CANN defines its members in libnnopbase, Canopy
// in this header), with CANN's conversions:
// - from float, double and the integers by rounding to nearest even; beyond the half range (65520 and
//   up) the result is an infinity, a NaN stays a NaN (0x7FFF with its sign);
// - fp16_t(uint16_t) takes the bits as they are (fp16_t(uint16_t{0x3C00}) is 1.0), while assigning a
//   uint16_t converts its value; every other type converts its value;
// - to float and double exactly; to the integers by rounding to nearest even, saturating; a negative
//   value, and a NaN or infinity with its sign bit set, is 0 as an unsigned type; a NaN or infinity is
//   the type's maximum otherwise (the signed types' minimum when negative);
// - +, -, * and / round the exact result to nearest even (computed in double, which rounds it exactly
//   once more); as CANN's, x / 0 is the largest finite half with the quotient's sign, 0 / x is +0;
// - == compares the bits (+0 equals -0; a NaN equals itself) and <, > order by sign and magnitude bits.
#ifndef CANOPY_OPDEV_FP16_T_H
#define CANOPY_OPDEV_FP16_T_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bfloat16.h"

#define FP16_EXP_BIAS (15)
#define FP16_EXP_LEN (5)
#define FP16_MAN_LEN (10)
#define FP16_SIGN_INDEX (15)
#define FP16_SIGN_MASK (0x8000)
#define FP16_EXP_MASK (0x7C00)
#define FP16_MAN_MASK (0x03FF)
#define FP16_MAN_HIDE_BIT (0x0400)
#define FP16_MAX (0x7BFF)
#define FP16_MIN (0xFBFF)
#define FP16_ABS_MAX (0x7FFF)
#define FP16_MAX_EXP (0x001F)
#define FP16_MAX_VALID_EXP (0x001E)
#define FP16_MAX_MAN (0x03FF)
#define FP16_MIN_NORMAL ((1.0f / (2 << 14)))
#define FP16_EXTRAC_SIGN(x) (((x) >> 15) & 1)
#define FP16_EXTRAC_EXP(x) (((x) >> 10) & FP16_MAX_EXP)
#define FP16_EXTRAC_MAN(x) ((((x) >> 0) & 0x3FF) | (((((x) >> 10) & 0x1F) > 0 ? 1 : 0) * 0x400))
#define FP16_CONSTRUCTOR(s, e, m) \
    (static_cast<uint16_t>(((s) << FP16_SIGN_INDEX) | ((e) << FP16_MAN_LEN) | ((m) & FP16_MAX_MAN)))
#define FP16_IS_ZERO(x) (((x) & FP16_ABS_MAX) == 0)
#define FP16_IS_DENORM(x) ((((x) & FP16_EXP_MASK) == 0))
#define FP16_IS_INF(x) (((x) & FP16_ABS_MAX) == FP16_ABS_MAX)
#define FP16_IS_NAN(x) ((((x) & FP16_EXP_MASK) == FP16_EXP_MASK) && ((x) & FP16_MAN_MASK))
#define FP16_IS_INVALID(x) (((x) & FP16_EXP_MASK) == FP16_EXP_MASK)

namespace op {

typedef enum tagFp16RoundMode {
    ROUND_TO_NEAREST = 0,
    ROUND_BY_TRUNCATED,
    ROUND_MODE_RESERVED,
} fp16RoundMode_t;

namespace fp16_detail {

// x rounded to the nearest integer, ties to even, whatever the floating-point environment's mode.
inline double round_half_even(double x) {
    double rounded = std::floor(x);
    const double rest = x - rounded;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(rounded, 2.0) != 0.0)) rounded += 1.0;
    return rounded;
}

inline uint16_t from_double(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 63) << 15);
    if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7FFF);
    const double magnitude = std::fabs(value);
    // 65520 lies halfway between the largest half, 65504, and 65536: the tie goes to the even 65536.
    if (magnitude >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00);
    if (magnitude < 0x1p-14) {
        // Subnormal: a count of 2^-24; the count 1024 is the smallest normal's encoding, 0x0400.
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(round_half_even(magnitude * 0x1p24)));
    }
    int exponent;
    std::frexp(magnitude, &exponent);  // magnitude = f * 2^exponent, f in [0.5, 1)
    const int unbiased = exponent - 1;
    // The significand with its hidden bit, 1024 to 2048; 2048 carries into the exponent field below.
    const double significand = round_half_even(std::ldexp(magnitude, 10 - unbiased));
    const unsigned encoded = (static_cast<unsigned>(unbiased + 15) << 10) + static_cast<unsigned>(significand) - 1024u;
    return static_cast<uint16_t>(sign | encoded);
}

inline double to_double(uint16_t bits) {
    const bool negative = (bits & 0x8000) != 0;
    const unsigned exponent = (bits >> 10) & 0x1F;
    const unsigned mantissa = bits & 0x3FF;
    if (exponent == 0x1F) {
        // Infinity, or a NaN keeping its payload in the top of the mantissa (as CANN's conversion).
        const uint64_t wide = (static_cast<uint64_t>(negative) << 63) | (0x7FFull << 52) |
                              (static_cast<uint64_t>(mantissa) << 42);
        double result;
        std::memcpy(&result, &wide, sizeof result);
        return result;
    }
    const double magnitude = exponent == 0
                                 ? std::ldexp(static_cast<double>(mantissa), -24)
                                 : std::ldexp(static_cast<double>(mantissa | 0x400), static_cast<int>(exponent) - 25);
    return negative ? -magnitude : magnitude;
}

inline float to_float(uint16_t bits) {
    if ((bits & 0x7C00) == 0x7C00) {
        const uint32_t wide = (static_cast<uint32_t>(bits & 0x8000) << 16) | 0x7F800000u |
                              (static_cast<uint32_t>(bits & 0x3FF) << 13);
        float result;
        std::memcpy(&result, &wide, sizeof result);
        return result;
    }
    return static_cast<float>(to_double(bits));  // exact: every finite half is a float
}

template <class Int>
Int to_integer(uint16_t bits) {
    const bool negative = (bits & 0x8000) != 0;
    const bool invalid = (bits & 0x7C00) == 0x7C00;
    constexpr Int lowest = std::numeric_limits<Int>::lowest();
    constexpr Int highest = std::numeric_limits<Int>::max();
    if (std::is_unsigned<Int>::value) {
        if (negative) return 0;
        if (invalid) return highest;
    } else if (invalid) {
        return negative ? lowest : highest;
    }
    const double rounded = round_half_even(to_double(bits));
    if (rounded <= static_cast<double>(lowest)) return lowest;
    if (rounded >= static_cast<double>(highest)) return highest;
    return static_cast<Int>(rounded);
}

// The order of CANN's comparisons: by sign, then by the magnitude bits (exponent, then mantissa).
inline bool greater(uint16_t a, uint16_t b) {
    const bool a_negative = (a & 0x8000) != 0;
    const bool b_negative = (b & 0x8000) != 0;
    const uint16_t a_magnitude = a & 0x7FFF;
    const uint16_t b_magnitude = b & 0x7FFF;
    if (!a_negative && b_negative) return a_magnitude != 0 || b_magnitude != 0;  // -0 equals +0
    if (!a_negative) return a_magnitude > b_magnitude;
    if (b_negative) return a_magnitude < b_magnitude;
    return false;
}

inline bool equal(uint16_t a, uint16_t b) { return ((a & 0x7FFF) == 0 && (b & 0x7FFF) == 0) || a == b; }

inline uint16_t divide(uint16_t a, uint16_t b) {
    if ((b & 0x7FFF) == 0) return static_cast<uint16_t>(((a ^ b) & 0x8000) | 0x7BFF);
    if ((a & 0x7FFF) == 0) return 0;
    return from_double(to_double(a) / to_double(b));
}

}  // namespace fp16_detail

typedef struct tagFp16 {
    uint16_t val;

public:
    tagFp16() : val(0) {}
    template <typename T>
    tagFp16(const T& value) {
        *this = value;
    }
    tagFp16(const bfloat16& value) : val(fp16_detail::from_double(static_cast<float>(value))) {}
    // The bits of a half, not a value to convert.
    constexpr tagFp16(const uint16_t& uiVal) : val(uiVal) {}
    tagFp16(const tagFp16& fp) : val(fp.val) {}

    tagFp16 operator+(const tagFp16 fp) const {
        return bits(fp16_detail::to_double(val) + fp16_detail::to_double(fp.val));
    }
    tagFp16 operator-(const tagFp16 fp) const {
        return bits(fp16_detail::to_double(val) - fp16_detail::to_double(fp.val));
    }
    tagFp16 operator*(const tagFp16 fp) const {
        return bits(fp16_detail::to_double(val) * fp16_detail::to_double(fp.val));
    }
    tagFp16 operator/(const tagFp16 fp) const { return tagFp16(fp16_detail::divide(val, fp.val)); }
    // As CANN's, the compound assignments return the new value, not a reference.
    tagFp16 operator+=(const tagFp16 fp) { return *this = *this + fp; }
    tagFp16 operator-=(const tagFp16 fp) { return *this = *this - fp; }
    tagFp16 operator*=(const tagFp16 fp) { return *this = *this * fp; }
    tagFp16 operator/=(const tagFp16 fp) { return *this = *this / fp; }

    bool operator==(const tagFp16& fp) const { return fp16_detail::equal(val, fp.val); }
    bool operator!=(const tagFp16& fp) const { return !fp16_detail::equal(val, fp.val); }
    bool operator>(const tagFp16& fp) const { return fp16_detail::greater(val, fp.val); }
    bool operator>=(const tagFp16& fp) const { return *this > fp || *this == fp; }
    bool operator<(const tagFp16& fp) const { return !(*this >= fp); }
    bool operator<=(const tagFp16& fp) const { return !(*this > fp); }

    tagFp16& operator=(const tagFp16& fp) {
        val = fp.val;
        return *this;
    }
    tagFp16& operator=(const float& fVal) { return assign(fVal); }
    tagFp16& operator=(const double& dVal) { return assign(dVal); }
    tagFp16& operator=(const int8_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint8_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int16_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint16_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int32_t& iVal) { return assign(iVal); }
    tagFp16& operator=(const uint32_t& uiVal) { return assign(uiVal); }
    tagFp16& operator=(const int64_t& iVal) { return assign(static_cast<double>(iVal)); }
    tagFp16& operator=(const uint64_t& uiVal) { return assign(static_cast<double>(uiVal)); }

    operator float() const { return fp16_detail::to_float(val); }
    operator bfloat16() const { return bfloat16(fp16_detail::to_float(val)); }
    operator double() const { return fp16_detail::to_double(val); }
    operator int8_t() const { return fp16_detail::to_integer<int8_t>(val); }
    operator uint8_t() const { return fp16_detail::to_integer<uint8_t>(val); }
    operator int16_t() const { return fp16_detail::to_integer<int16_t>(val); }
    operator uint16_t() const { return fp16_detail::to_integer<uint16_t>(val); }
    operator int32_t() const { return fp16_detail::to_integer<int32_t>(val); }
    operator uint32_t() const { return fp16_detail::to_integer<uint32_t>(val); }
    // As CANN's: through the 32-bit conversions.
    operator int64_t() const { return fp16_detail::to_integer<int32_t>(val); }
    operator uint64_t() const { return fp16_detail::to_integer<uint32_t>(val); }
    // The bits, as CANN's: -0 is true.
    operator bool() const { return val != 0; }

    // 1 for +infinity, -1 for -infinity, 0 otherwise.
    int IsInf() const {
        if ((val & FP16_ABS_MAX) != FP16_EXP_MASK) return 0;
        return (val & FP16_SIGN_MASK) != 0 ? -1 : 1;
    }

    float toFloat() const { return fp16_detail::to_float(val); }
    double toDouble() const { return fp16_detail::to_double(val); }
    int8_t toInt8() const { return fp16_detail::to_integer<int8_t>(val); }
    uint8_t toUInt8() const { return fp16_detail::to_integer<uint8_t>(val); }
    int16_t toInt16() const { return fp16_detail::to_integer<int16_t>(val); }
    uint16_t toUInt16() const { return fp16_detail::to_integer<uint16_t>(val); }
    int32_t toInt32() const { return fp16_detail::to_integer<int32_t>(val); }
    uint32_t toUInt32() const { return fp16_detail::to_integer<uint32_t>(val); }

private:
    static tagFp16 bits(double exact) { return tagFp16(fp16_detail::from_double(exact)); }
    template <class Number>
    tagFp16& assign(Number number) {
        val = fp16_detail::from_double(static_cast<double>(number));
        return *this;
    }
} fp16_t;

template <typename T>
bool operator<(T a, op::fp16_t b) {
    return a < static_cast<T>(b);
}

template <typename T>
bool operator>(T a, op::fp16_t b) {
    return a > static_cast<T>(b);
}

}  // namespace op

// CANN's header adds these to std.
namespace std {
inline bool isnan(op::fp16_t value) { return FP16_IS_NAN(value.val); }
inline float abs(op::fp16_t value) { return std::abs(value.toFloat()); }
}  // namespace std

#endif  // CANOPY_OPDEV_FP16_T_H
