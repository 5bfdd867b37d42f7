#pragma once
// CANN's simt_api/vector_functions.h: make_<type>() for the short vector types.
#include "simt_api/device_types.h"

#define CANOPY_SIMT_MAKE2_(name, T) \
    inline name make_##name(T x, T y) { return name{x, y}; }
#define CANOPY_SIMT_MAKE4_(name, T) \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
CANOPY_SIMT_MAKE2_(char2, signed char)
CANOPY_SIMT_MAKE4_(char4, signed char)
CANOPY_SIMT_MAKE2_(uchar2, unsigned char)
CANOPY_SIMT_MAKE4_(uchar4, unsigned char)
CANOPY_SIMT_MAKE2_(short2, short)
CANOPY_SIMT_MAKE4_(short4, short)
CANOPY_SIMT_MAKE2_(ushort2, unsigned short)
CANOPY_SIMT_MAKE4_(ushort4, unsigned short)
CANOPY_SIMT_MAKE2_(int2, int)
CANOPY_SIMT_MAKE4_(int4, int)
CANOPY_SIMT_MAKE2_(uint2, unsigned int)
CANOPY_SIMT_MAKE4_(uint4, unsigned int)
CANOPY_SIMT_MAKE2_(long2, long)
CANOPY_SIMT_MAKE4_(long4, long)
CANOPY_SIMT_MAKE2_(ulong2, unsigned long)
CANOPY_SIMT_MAKE4_(ulong4, unsigned long)
CANOPY_SIMT_MAKE2_(longlong2, long long)
CANOPY_SIMT_MAKE4_(longlong4, long long)
CANOPY_SIMT_MAKE2_(ulonglong2, unsigned long long)
CANOPY_SIMT_MAKE4_(ulonglong4, unsigned long long)
CANOPY_SIMT_MAKE2_(float2, float)
CANOPY_SIMT_MAKE4_(float4, float)
#undef CANOPY_SIMT_MAKE2_
#undef CANOPY_SIMT_MAKE4_
