#pragma once
// Kernels of kernel_c_api_test (c_api_kernels.cpp for the A2, c_api_reg_kernels.cpp for the 950):
// CANN's C API (c_api/asc_simd.h) on UB arrays the kernels declare.
#include <cstdint>

// z = x + y, n floats per block (a multiple of 8, at most 4096), through asc_copy_gm2ub, asc_add and
// asc_copy_ub2gm; mode 0 orders the pipes with asc_sync_notify / asc_sync_wait, 1 with the _sync forms,
// 2 with asc_sync; 3 omits the MTE2 -> V order (a broken kernel).
uint32_t launch_c_api_add(uint32_t blocks, void* stream, const float* x, const float* y, float* z, uint32_t n,
                          int32_t mode);
// asc_copy_gm2ub to an address outside the UB (a broken kernel).
uint32_t launch_c_api_outside_ub(void* stream, const float* x);
// z = x * y + x (n halves per block, not a multiple of the register) in a __simd_vf__ function with
// asc_load / asc_mul / asc_add / asc_store and asc_update_mask_b16; mode 1 stores a whole register past
// the block's UB (a broken kernel).
uint32_t launch_c_api_reg(uint32_t blocks, void* stream, const uint16_t* x, const uint16_t* y, uint16_t* z, uint32_t n,
                          int32_t mode);
