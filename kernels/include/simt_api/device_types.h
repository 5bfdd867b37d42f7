#pragma once
// CANN's simt_api/device_types.h: the SIMT builtins (threadIdx, blockIdx, blockDim, gridDim, warpSize),
// dim3 and the short vector types, over Canopy's SIMT runtime (canopy/kernel/simt/simt.h).
#include <cstdint>

#include "canopy/kernel/simt/simt.h"

// threadIdx, blockIdx, blockDim, gridDim and warpSize are canopy/kernel/simt/simt.h's (builtins,
// thread-local as block_idx is).

// Short vector types (CANN's device_types.h: aligned like their size, as the 950 loads them).
#define CANOPY_SIMT_VECTOR2_(name, T, align) \
    struct alignas(align) name {             \
        T x, y;                              \
    };
#define CANOPY_SIMT_VECTOR4_(name, T, align) \
    struct alignas(align) name {             \
        T x, y, z, w;                        \
    };
CANOPY_SIMT_VECTOR2_(char2, signed char, 2)
CANOPY_SIMT_VECTOR4_(char4, signed char, 4)
CANOPY_SIMT_VECTOR2_(uchar2, unsigned char, 2)
CANOPY_SIMT_VECTOR4_(uchar4, unsigned char, 4)
CANOPY_SIMT_VECTOR2_(short2, short, 4)
CANOPY_SIMT_VECTOR4_(short4, short, 8)
CANOPY_SIMT_VECTOR2_(ushort2, unsigned short, 4)
CANOPY_SIMT_VECTOR4_(ushort4, unsigned short, 8)
CANOPY_SIMT_VECTOR2_(int2, int, 8)
CANOPY_SIMT_VECTOR4_(int4, int, 16)
CANOPY_SIMT_VECTOR2_(uint2, unsigned int, 8)
CANOPY_SIMT_VECTOR4_(uint4, unsigned int, 16)
CANOPY_SIMT_VECTOR2_(long2, long, 16)
CANOPY_SIMT_VECTOR4_(long4, long, 16)
CANOPY_SIMT_VECTOR2_(ulong2, unsigned long, 16)
CANOPY_SIMT_VECTOR4_(ulong4, unsigned long, 16)
CANOPY_SIMT_VECTOR2_(longlong2, long long, 16)
CANOPY_SIMT_VECTOR4_(longlong4, long long, 16)
CANOPY_SIMT_VECTOR2_(ulonglong2, unsigned long long, 16)
CANOPY_SIMT_VECTOR4_(ulonglong4, unsigned long long, 16)
CANOPY_SIMT_VECTOR2_(float2, float, 8)
CANOPY_SIMT_VECTOR4_(float4, float, 16)
#undef CANOPY_SIMT_VECTOR2_
#undef CANOPY_SIMT_VECTOR4_
