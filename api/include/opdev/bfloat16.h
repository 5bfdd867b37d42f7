// op::bfloat16, CANN's host-side bfloat16 (opdev/bfloat16.h, defined in CANN as Ops::Base::bfloat16):
// the upper half of an IEEE float. A float becomes a bfloat16 by rounding to nearest even (NaN becomes
// the quiet NaN 0x7FC0); arithmetic is done in float and rounded back. As CANN's, a bfloat16 converts
// implicitly to float and to the integer types (through float), and is true when its magnitude is at
// least float's epsilon. Header-only.
#ifndef CANOPY_OPDEV_BFLOAT16_H
#define CANOPY_OPDEV_BFLOAT16_H

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>

namespace Ops {
namespace Base {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

struct bfloat16 {
    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }

    constexpr bfloat16(uint16_t bits, from_bits_t) : value(bits) {}
    bfloat16() : value(0) {}
    bfloat16(float v) : value(round_to_bfloat16(v).value) {}
    // As numpy: a complex number loses its imaginary part.
    bfloat16(const complex64& v) : bfloat16(v.real()) {}
    bfloat16(const complex128& v) : bfloat16(static_cast<float>(v.real())) {}
    template <class T>
    bfloat16(const T& v) : bfloat16(static_cast<float>(v)) {}

    template <typename T>
    bfloat16& operator=(T other) {
        value = round_to_bfloat16(static_cast<float>(other)).value;
        return *this;
    }

    operator float() const {
        const uint32_t bits = static_cast<uint32_t>(value) << 16;
        float result;
        std::memcpy(&result, &bits, sizeof result);
        return result;
    }
    operator bool() const { return std::abs(float(*this)) >= std::numeric_limits<float>::epsilon(); }
    operator short() const { return static_cast<short>(float(*this)); }
    operator int() const { return static_cast<int>(float(*this)); }
    operator long() const { return static_cast<long>(float(*this)); }
    operator char() const { return static_cast<char>(float(*this)); }
    operator signed char() const { return static_cast<signed char>(float(*this)); }
    operator unsigned char() const { return static_cast<unsigned char>(float(*this)); }
    operator unsigned short() const { return static_cast<unsigned short>(float(*this)); }
    operator unsigned int() const { return static_cast<unsigned int>(float(*this)); }
    operator unsigned long() const { return static_cast<unsigned long>(float(*this)); }
    operator unsigned long long() const { return static_cast<unsigned long long>(float(*this)); }
    operator long long() const { return static_cast<long long>(float(*this)); }
    operator double() const { return static_cast<double>(float(*this)); }
    operator complex64() const { return complex64(float(*this), 0.0f); }
    operator complex128() const { return complex128(double(*this), 0.0); }

    // Round to nearest even: adding 0x7FFF plus the lowest kept bit carries into the kept half exactly
    // when the dropped half is above one half, or is one half and the kept half is odd.
    static bfloat16 round_to_bfloat16(float v) {
        if (std::isnan(v)) return bfloat16(NAN_VALUE, from_bits());
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        const uint32_t lowest_kept = (bits >> 16) & 1u;
        bits += 0x7FFFu + lowest_kept;
        return bfloat16(static_cast<uint16_t>(bits >> 16), from_bits());
    }

    static constexpr bfloat16 epsilon() { return bfloat16(0x3C00, from_bits()); }
    static constexpr bfloat16 highest() { return bfloat16(0x7F7F, from_bits()); }
    static constexpr bfloat16 lowest() { return bfloat16(0xFF7F, from_bits()); }
    static constexpr bfloat16 min_positive_normal() { return bfloat16(0x0080, from_bits()); }

    bool IsZero() const { return (value & 0x7FFF) == 0; }

    uint16_t value;
    static constexpr uint16_t NAN_VALUE = 0x7FC0;
};

inline std::ostream& operator<<(std::ostream& os, const bfloat16& v) { return os << static_cast<float>(v); }

inline bfloat16 operator+(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) + static_cast<float>(b)); }
inline bfloat16 operator+(bfloat16 a, int b) { return bfloat16(static_cast<float>(a) + static_cast<float>(b)); }
inline bfloat16 operator+(int a, bfloat16 b) { return bfloat16(static_cast<float>(a) + static_cast<float>(b)); }
inline bfloat16 operator-(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) - static_cast<float>(b)); }
inline bfloat16 operator*(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) * static_cast<float>(b)); }
inline bfloat16 operator/(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) / static_cast<float>(b)); }
inline bfloat16 operator-(bfloat16 a) {
    a.value ^= 0x8000;
    return a;
}

inline bool operator<(bfloat16 a, bfloat16 b) { return static_cast<float>(a) < static_cast<float>(b); }
template <typename T>
bool operator<(T a, bfloat16 b) {
    return static_cast<float>(a) < static_cast<float>(b);
}
inline bool operator<=(bfloat16 a, bfloat16 b) { return static_cast<float>(a) <= static_cast<float>(b); }
// Bitwise, as CANN's: +0 and -0 differ, and a NaN equals itself.
inline bool operator==(bfloat16 a, bfloat16 b) { return a.value == b.value; }
inline bool operator!=(bfloat16 a, bfloat16 b) { return a.value != b.value; }
template <typename T>
bool operator>(T a, bfloat16 b) {
    return static_cast<float>(a) > static_cast<float>(b);
}
inline bool operator>=(bfloat16 a, bfloat16 b) { return static_cast<float>(a) >= static_cast<float>(b); }

inline bfloat16& operator+=(bfloat16& a, bfloat16 b) { return a = a + b; }
inline bfloat16& operator-=(bfloat16& a, bfloat16 b) { return a = a - b; }
inline bfloat16& operator*=(bfloat16& a, bfloat16 b) { return a = a * b; }
inline bfloat16& operator/=(bfloat16& a, bfloat16 b) { return a = a / b; }
inline bfloat16 operator++(bfloat16& a) { return a += bfloat16(1.0f); }
inline bfloat16 operator--(bfloat16& a) { return a -= bfloat16(1.0f); }
inline bfloat16 operator++(bfloat16& a, int) {
    const bfloat16 before = a;
    ++a;
    return before;
}
inline bfloat16 operator--(bfloat16& a, int) {
    const bfloat16 before = a;
    --a;
    return before;
}

}  // namespace Base
}  // namespace Ops

namespace op {
using Ops::Base::bfloat16;
using Ops::Base::complex128;
using Ops::Base::complex64;
}  // namespace op

// CANN's header adds these to std, and programs call them as std::isnan(x) and so on.
namespace std {
template <>
struct hash<Ops::Base::bfloat16> {
    size_t operator()(const Ops::Base::bfloat16& v) const { return hash<float>()(static_cast<float>(v)); }
};

inline bool isinf(const Ops::Base::bfloat16& a) { return std::isinf(float(a)); }
inline bool isnan(const Ops::Base::bfloat16& a) { return std::isnan(float(a)); }
inline bool isfinite(const Ops::Base::bfloat16& a) { return std::isfinite(float(a)); }
inline Ops::Base::bfloat16 abs(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::abs(float(a))); }
inline Ops::Base::bfloat16 exp(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::exp(float(a))); }
inline Ops::Base::bfloat16 log(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::log(float(a))); }
inline Ops::Base::bfloat16 log10(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::log10(float(a))); }
inline Ops::Base::bfloat16 sqrt(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::sqrt(float(a))); }
inline Ops::Base::bfloat16 pow(const Ops::Base::bfloat16& a, const Ops::Base::bfloat16& b) {
    return Ops::Base::bfloat16(std::pow(float(a), float(b)));
}
inline Ops::Base::bfloat16 sin(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::sin(float(a))); }
inline Ops::Base::bfloat16 cos(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::cos(float(a))); }
inline Ops::Base::bfloat16 tan(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::tan(float(a))); }
inline Ops::Base::bfloat16 tanh(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::tanh(float(a))); }
inline Ops::Base::bfloat16 floor(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::floor(float(a))); }
inline Ops::Base::bfloat16 ceil(const Ops::Base::bfloat16& a) { return Ops::Base::bfloat16(std::ceil(float(a))); }

template <>
class numeric_limits<Ops::Base::bfloat16> {
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = 8;
    static constexpr int digits10 = 2;
    static constexpr int max_digits10 = 4;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -125;
    static constexpr int min_exponent10 = -37;
    static constexpr int max_exponent = 128;
    static constexpr int max_exponent10 = 38;
    static constexpr auto has_denorm = numeric_limits<float>::has_denorm;
    static constexpr auto has_denorm_loss = numeric_limits<float>::has_denorm_loss;
    static constexpr auto round_style = numeric_limits<float>::round_style;
    static constexpr bool traps = numeric_limits<float>::traps;
    static constexpr bool tinyness_before = numeric_limits<float>::tinyness_before;

    static constexpr Ops::Base::bfloat16 min() { return Ops::Base::bfloat16::min_positive_normal(); }
    static constexpr Ops::Base::bfloat16 lowest() { return Ops::Base::bfloat16::lowest(); }
    static constexpr Ops::Base::bfloat16 max() { return Ops::Base::bfloat16::highest(); }
    static constexpr Ops::Base::bfloat16 epsilon() { return Ops::Base::bfloat16::epsilon(); }
    static constexpr Ops::Base::bfloat16 round_error() { return from(0x3F00); }
    static constexpr Ops::Base::bfloat16 infinity() { return from(0x7F80); }
    static constexpr Ops::Base::bfloat16 quiet_NaN() { return from(Ops::Base::bfloat16::NAN_VALUE); }
    // A signaling NaN (quiet bit clear, payload set); CANN's header answers the infinity 0x7F80.
    static constexpr Ops::Base::bfloat16 signaling_NaN() { return from(0x7FA0); }
    static constexpr Ops::Base::bfloat16 denorm_min() { return from(0x0001); }

private:
    static constexpr Ops::Base::bfloat16 from(uint16_t bits) {
        return Ops::Base::bfloat16(bits, Ops::Base::bfloat16::from_bits());
    }
};
}  // namespace std

#endif  // CANOPY_OPDEV_BFLOAT16_H
