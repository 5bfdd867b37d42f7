// Half-precision helpers and element sizes. CANN's conversions saturate rather than follow IEEE at
// the edges: a float too large for a half, an infinity or a NaN becomes the largest finite half of
// its sign (+-65504), and a half whose exponent is all ones is read as if that exponent were an
// ordinary one (infinity is 65536, NaNs are 65536 times 1.mantissa). Finite values convert exactly,
// rounding to nearest, ties to even, through the subnormals.
#include <cstring>

#include "api.h"

namespace {

constexpr std::uint32_t half_mantissa_bits = 10;
constexpr std::uint32_t float_mantissa_bits = 23;
constexpr std::uint32_t largest_finite_half = 0x7bff;

float float_from_bits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::uint32_t bits_of(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// Drops `shift` low bits of `value`, rounding to nearest with ties to even.
std::uint64_t round_shift(std::uint64_t value, std::uint32_t shift) {
    const std::uint64_t kept = value >> shift;
    const std::uint64_t rest = value & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

}  // namespace

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) {
    const std::uint32_t sign = static_cast<std::uint32_t>(value & 0x8000u) << 16;
    const std::uint32_t exponent = (value >> half_mantissa_bits) & 0x1fu;
    std::uint32_t mantissa = value & 0x3ffu;
    if (exponent == 0) {
        if (mantissa == 0) return float_from_bits(sign);
        // A subnormal half is a normal float: shift its leading one into the hidden position.
        int normalized = 1 - 15 + 127;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --normalized;
        }
        mantissa &= 0x3ffu;
        return float_from_bits(sign | (static_cast<std::uint32_t>(normalized) << float_mantissa_bits) |
                               (mantissa << (float_mantissa_bits - half_mantissa_bits)));
    }
    // Exponent 31 included: CANN reads it as 2^16 (no infinities or NaNs).
    return float_from_bits(sign | ((exponent - 15 + 127) << float_mantissa_bits) |
                           (mantissa << (float_mantissa_bits - half_mantissa_bits)));
}

aclFloat16 aclFloatToFloat16(float value) {
    const std::uint32_t bits = bits_of(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const std::uint32_t exponent = (bits >> float_mantissa_bits) & 0xffu;
    const std::uint32_t mantissa = bits & 0x7fffffu;
    // Infinities, NaNs and everything from 2^16 up saturate.
    if (exponent > 127 + 15) return static_cast<aclFloat16>(sign | largest_finite_half);
    std::uint32_t magnitude;
    if (exponent >= 127 - 14) {
        // Normal range: rounding may carry into the exponent, up to 2^16, which saturates.
        magnitude = static_cast<std::uint32_t>(
            round_shift((static_cast<std::uint64_t>(exponent - 127 + 15) << float_mantissa_bits) | mantissa,
                        float_mantissa_bits - half_mantissa_bits));
        if (magnitude > largest_finite_half) magnitude = largest_finite_half;
    } else if (exponent == 0) {
        magnitude = 0;  // float subnormals are far below half the smallest half subnormal
    } else {
        // Subnormal half, in units of 2^-24: (1.mantissa) * 2^(exponent-127) is the 24-bit
        // significand shifted right by 126 - exponent; below 2^-25 everything rounds to zero.
        const std::uint32_t shift = 126 - exponent;
        magnitude = shift > 25 ? 0 : static_cast<std::uint32_t>(round_shift(mantissa | 0x800000u, shift));
    }
    return static_cast<aclFloat16>(sign | magnitude);
}

size_t aclDataTypeSize(aclDataType dataType) {
    switch (canopy::api::raw_value(dataType)) {
        case ACL_DT_UNDEFINED:
        case ACL_STRING: return 0;
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_INT4:    // CANN counts the sub-byte types as one byte
        case ACL_UINT1:
        case ACL_HIFLOAT8:
        case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN:
        case ACL_FLOAT8_E8M0: return 1;
        case ACL_FLOAT16:
        case ACL_INT16:
        case ACL_UINT16:
        case ACL_BF16: return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_COMPLEX32: return 4;
        case ACL_COMPLEX128: return 16;
        default: return 8;  // 64-bit types, COMPLEX64, and (as CANN) any other value
    }
}

}  // extern "C"
