// aclFloat16ToFloat, aclFloatToFloat16, aclDataTypeSize: every one of the 65536 halves, the
// rounding of every midpoint between neighbouring halves, and CANN's saturation at the edges.
#include <cmath>
#include <cstring>

#include "support.h"

namespace {

// The exact value of a finite half, computed independently of the runtime.
double half_value(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

uint32_t float_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

}  // namespace

TEST_CASE("aclFloat16ToFloat is exact for all 63488 finite halves and signed zeros") {
    for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
        if (((bits >> 10) & 0x1f) == 0x1f) continue;
        const float converted = aclFloat16ToFloat(static_cast<aclFloat16>(bits));
        REQUIRE_MESSAGE(static_cast<double>(converted) == half_value(static_cast<uint16_t>(bits)), "half " << bits);
        REQUIRE(std::signbit(converted) == ((bits & 0x8000) != 0));
    }
}

TEST_CASE("aclFloat16ToFloat reads the all-ones exponent as 2^16, as CANN does") {
    CHECK(aclFloat16ToFloat(0x7c00) == 65536.0f);   // +inf
    CHECK(aclFloat16ToFloat(0xfc00) == -65536.0f);  // -inf
    CHECK(aclFloat16ToFloat(0x7e00) == 98304.0f);   // a quiet NaN: 1.5 * 2^16
    for (uint32_t mantissa = 0; mantissa < 1024; ++mantissa) {
        REQUIRE(aclFloat16ToFloat(static_cast<aclFloat16>(0x7c00 | mantissa)) == std::ldexp(1024.0f + mantissa, 6));
    }
}

TEST_CASE("aclFloatToFloat16 round-trips every finite half") {
    for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
        if (((bits >> 10) & 0x1f) == 0x1f) continue;
        const float value = static_cast<float>(half_value(static_cast<uint16_t>(bits)));
        REQUIRE_MESSAGE(aclFloatToFloat16(value) == bits, "half " << bits);
    }
}

TEST_CASE("aclFloatToFloat16 rounds to nearest, ties to even, through the subnormals") {
    // Between each pair of neighbouring positive halves (up to the largest, 0x7bff): the midpoint
    // goes to the even one, the floats just beside it to the nearer one.
    for (uint16_t low = 0; low < 0x7bff; ++low) {
        const auto high = static_cast<uint16_t>(low + 1);
        const double midpoint = (half_value(low) + half_value(high)) / 2;
        const auto mid = static_cast<float>(midpoint);  // exact: a float has 13 more bits
        REQUIRE(static_cast<double>(mid) == midpoint);
        const uint16_t even = (low & 1) ? high : low;
        REQUIRE_MESSAGE(aclFloatToFloat16(mid) == even, "midpoint above half " << low);
        REQUIRE(aclFloatToFloat16(std::nextafter(mid, 0.0f)) == low);
        REQUIRE(aclFloatToFloat16(std::nextafter(mid, 1e9f)) == high);
        REQUIRE(aclFloatToFloat16(-mid) == (even | 0x8000));
    }
    // Below half the smallest subnormal everything is zero; the half point itself is a tie to 0.
    CHECK(aclFloatToFloat16(std::ldexp(1.0f, -25)) == 0);
    CHECK(aclFloatToFloat16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 1);
    CHECK(aclFloatToFloat16(std::ldexp(1.0f, -40)) == 0);
    CHECK(aclFloatToFloat16(-std::ldexp(1.0f, -40)) == 0x8000);
    CHECK(aclFloatToFloat16(1e-45f) == 0);  // a float subnormal
    CHECK(aclFloatToFloat16(-0.0f) == 0x8000);
}

TEST_CASE("aclFloatToFloat16 saturates overflows, infinities and NaNs to +-65504, as CANN does") {
    CHECK(aclFloatToFloat16(65504.0f) == 0x7bff);
    CHECK(aclFloatToFloat16(65519.0f) == 0x7bff);  // would round to infinity in IEEE
    CHECK(aclFloatToFloat16(65520.0f) == 0x7bff);
    CHECK(aclFloatToFloat16(1e10f) == 0x7bff);
    CHECK(aclFloatToFloat16(-1e10f) == 0xfbff);
    CHECK(aclFloatToFloat16(INFINITY) == 0x7bff);
    CHECK(aclFloatToFloat16(-INFINITY) == 0xfbff);
    CHECK(aclFloatToFloat16(NAN) == 0x7bff);
    CHECK((aclFloatToFloat16(-NAN) & 0x7fff) == 0x7bff);
    CHECK(float_bits(aclFloat16ToFloat(aclFloatToFloat16(1.0f))) == float_bits(1.0f));
}

TEST_CASE("aclDataTypeSize gives CANN's element sizes") {
    CHECK(aclDataTypeSize(ACL_FLOAT) == 4);
    CHECK(aclDataTypeSize(ACL_FLOAT16) == 2);
    CHECK(aclDataTypeSize(ACL_BF16) == 2);
    CHECK(aclDataTypeSize(ACL_INT8) == 1);
    CHECK(aclDataTypeSize(ACL_UINT8) == 1);
    CHECK(aclDataTypeSize(ACL_BOOL) == 1);
    CHECK(aclDataTypeSize(ACL_INT16) == 2);
    CHECK(aclDataTypeSize(ACL_UINT16) == 2);
    CHECK(aclDataTypeSize(ACL_INT32) == 4);
    CHECK(aclDataTypeSize(ACL_UINT32) == 4);
    CHECK(aclDataTypeSize(ACL_INT64) == 8);
    CHECK(aclDataTypeSize(ACL_UINT64) == 8);
    CHECK(aclDataTypeSize(ACL_DOUBLE) == 8);
    CHECK(aclDataTypeSize(ACL_COMPLEX64) == 8);
    CHECK(aclDataTypeSize(ACL_COMPLEX128) == 16);
    CHECK(aclDataTypeSize(ACL_COMPLEX32) == 4);
    CHECK(aclDataTypeSize(ACL_INT4) == 1);
    CHECK(aclDataTypeSize(ACL_UINT1) == 1);
    CHECK(aclDataTypeSize(ACL_HIFLOAT8) == 1);
    CHECK(aclDataTypeSize(ACL_FLOAT8_E4M3FN) == 1);
    CHECK(aclDataTypeSize(ACL_STRING) == 0);
    CHECK(aclDataTypeSize(ACL_DT_UNDEFINED) == 0);
}
