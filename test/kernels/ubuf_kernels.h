#pragma once
// Kernels of kernel_ubuf_test (ubuf_kernels.cpp, built for dav-3510 by the kernel compiler): the
// __ubuf__ arrays a kernel and the __simd_vf__ functions it calls declare, placed in the block's
// modelled UB (canopy/kernel/ub_array.h), and the launch's dynamic UB behind extern __ubuf__ arrays.
#include <cstdint>

// What one block saw of its arrays, at out[GetBlockIdx()].
struct UbufRecord {
    int64_t local_offset[3];     // UB byte offsets of the kernel's three arrays
    int64_t loop_offsets[2];     // an array declared in a loop body, first and last iteration
    int64_t static_offset;       // a static __ubuf__ array
    int64_t template_offsets[2]; // the same array of two instantiations of a template function
    int64_t vf_offset;           // an array the __simd_vf__ function declares
    int64_t dynamic_offset;      // extern __ubuf__ float dyn[] (also at namespace scope: global_dynamic_offset)
    int64_t global_dynamic_offset;
    int64_t sizes[2];            // sizeof of a kernel array, of a two-dimensional one
    int64_t ub_bytes;            // GetRuntimeUBSize()
};

// z = x + y through the kernel's own __ubuf__ arrays and a VF (n floats per block, a multiple of 64),
// recording each block's placements; the launch has `dynamic_bytes` of dynamic UB, which the kernel
// fills from x and copies back to w[block * dynamic floats ...].
uint32_t launch_ubuf_add(uint32_t blocks, uint32_t dynamic_bytes, void* stream, const float* x, const float* y,
                         float* z, float* w, uint32_t n, UbufRecord* records);
// misuse: 1 arrays larger than the UB, 2 an index past the dynamic UB.
uint32_t launch_ubuf_misuse(uint32_t blocks, uint32_t dynamic_bytes, void* stream, int32_t misuse);
