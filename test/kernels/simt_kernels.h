#pragma once
// SIMT kernels of simt_api_test (simt_kernels.cpp, compiled by canopy_add_kernels) and the host
// functions that launch them with the four-value <<<blocks, threads, dynUBufSize, stream>>>.
#include <cstdint>

// Each returns 0 or the aclError that rejected the launch.
uint32_t launch_simt_add(uint32_t blocks, uint32_t threads, void* stream, const float* x, const float* y, float* z, uint32_t n);
// A 2-D block (dim3): out[y * width + x] = y * 1000 + x, with blockIdx.x over column tiles.
uint32_t launch_simt_index_2d(void* stream, uint32_t* out, uint32_t width, uint32_t height);
// Sums of each block's 1024 values through asc_syncthreads and UB (the block's buffer), then shuffles.
uint32_t launch_simt_block_sum(uint32_t blocks, void* stream, const float* x, float* sums);
// Per warp: shfl, shfl_up, shfl_down, shfl_xor, reduce_add, ballot, all, any results, 8 per lane.
uint32_t launch_simt_warp(uint32_t threads, void* stream, int32_t* out);
// A histogram of `n` bytes into 16 bins in GM with asc_atomic_add, and a CAS-counted total.
uint32_t launch_simt_histogram(uint32_t blocks, void* stream, const uint8_t* data, uint32_t n, uint32_t* bins);
// A SIMD kernel calling a __simt_vf__ function through asc_vf_call(dim3(threads), ...): out[block * threads + t].
uint32_t launch_simt_vf(uint32_t blocks, uint32_t threads, void* stream, uint32_t* out);
// Broken kernels: thread 0 returns before the barrier the others wait at; lane 0 waits at a shuffle
// while the rest wait at the block barrier (a deadlock); 4096 threads in a block.
uint32_t launch_simt_unreached_barrier(void* stream);
uint32_t launch_simt_deadlock(void* stream);
uint32_t launch_simt_too_many_threads(void* stream);
