#pragma once
// CANN's simt_api/math_functions.h: the math library of SIMT code. The C library's functions (sinf,
// sincosf, floorf, fmodf, ...) are what a CPU computes them with; the CUDA-style integer intrinsics
// are defined here.
#include <cmath>
#include <cstdint>

#include "simt_api/device_types.h"
#include "simt_api/math_constants.h"

// Number of set bits.
inline std::int32_t __popc(std::uint32_t x) { return __builtin_popcount(x); }
inline std::int32_t __popcll(std::uint64_t x) { return __builtin_popcountll(x); }
// Leading zeros, first set bit (1-based, 0 for none), bit reverse.
inline std::int32_t __clz(std::int32_t x) { return x == 0 ? 32 : __builtin_clz(std::uint32_t(x)); }
inline std::int32_t __clzll(std::int64_t x) { return x == 0 ? 64 : __builtin_clzll(std::uint64_t(x)); }
inline std::int32_t __ffs(std::int32_t x) { return __builtin_ffs(x); }
inline std::int32_t __ffsll(std::int64_t x) { return __builtin_ffsll(x); }
inline std::uint32_t __brev(std::uint32_t x) {
    std::uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
// The high 32 bits of the 64-bit product.
inline std::uint32_t __umulhi(std::uint32_t x, std::uint32_t y) { return std::uint32_t((std::uint64_t(x) * y) >> 32); }
inline std::int32_t __mulhi(std::int32_t x, std::int32_t y) { return std::int32_t((std::int64_t(x) * y) >> 32); }
inline std::uint64_t __umul64hi(std::uint64_t x, std::uint64_t y) {
    return std::uint64_t((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline float __fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
