#pragma once
// CANN's simt_api/asc_fp16.h: half (IEEE binary16) and half2 in SIMT code, with their arithmetic.
#include "canopy/kernel/ascendc/types.h"
#include "simt_api/asc_simt.h"

// Two halves, loaded and stored together (4-byte aligned, as the 950 moves them).
struct alignas(4) half2 {
    half x;
    half y;
};
inline half2 make_half2(half x, half y) { return half2{x, y}; }
inline half2 operator+(half2 a, half2 b) { return half2{half(a.x + b.x), half(a.y + b.y)}; }
inline half2 operator-(half2 a, half2 b) { return half2{half(a.x - b.x), half(a.y - b.y)}; }
inline half2 operator*(half2 a, half2 b) { return half2{half(a.x * b.x), half(a.y * b.y)}; }
inline half2 operator/(half2 a, half2 b) { return half2{half(a.x / b.x), half(a.y / b.y)}; }
inline half2& operator+=(half2& a, half2 b) { return a = a + b; }
inline half2& operator-=(half2& a, half2 b) { return a = a - b; }
inline half2& operator*=(half2& a, half2 b) { return a = a * b; }
