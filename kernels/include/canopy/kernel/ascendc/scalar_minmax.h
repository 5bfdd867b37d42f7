#pragma once
// The scalar min and max the NPU's kernel compiler provides as builtins (called unqualified in
// kernel code, `min(baseM, rowNum)`). Non-template overloads of the arithmetic types: with
// `using namespace std` an exact match prefers them over std::min, so calls stay unambiguous.
#include <cstdint>

#define CANOPY_SCALAR_MINMAX(T)                                \
    inline T min(T a, T b) { return b < a ? b : a; }           \
    inline T max(T a, T b) { return a < b ? b : a; }

#ifndef CANOPY_SCALAR_MINMAX_DEFINED
#define CANOPY_SCALAR_MINMAX_DEFINED
CANOPY_SCALAR_MINMAX(int16_t)
CANOPY_SCALAR_MINMAX(uint16_t)
CANOPY_SCALAR_MINMAX(int32_t)
CANOPY_SCALAR_MINMAX(uint32_t)
CANOPY_SCALAR_MINMAX(long)
CANOPY_SCALAR_MINMAX(unsigned long)
CANOPY_SCALAR_MINMAX(long long)
CANOPY_SCALAR_MINMAX(unsigned long long)
CANOPY_SCALAR_MINMAX(float)
CANOPY_SCALAR_MINMAX(double)
#endif
#undef CANOPY_SCALAR_MINMAX
