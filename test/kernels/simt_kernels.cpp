// SIMT kernels of simt_api_test: one per family of the simt_api, and broken ones for its checks.
#include "simt_kernels.h"

#include "kernel_operator.h"
#include "simt_api/asc_simt.h"

__global__ void simt_add(const float* x, const float* y, float* z, uint32_t n)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}

__global__ void simt_index_2d(uint32_t* out, uint32_t width, uint32_t height)
{
    const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t y = threadIdx.y;
    if (x < width && y < height) out[y * width + x] = y * 1000 + x + (gridDim.x == 2 && blockDim.y == height ? 0 : 7);
}

// Tree reduction over the block's UB, then the last warp with shuffles.
__global__ void simt_block_sum(const float* x, float* sums)
{
    float* partial = reinterpret_cast<float*>(canopy::kernel::current_block().ub);
    const uint32_t t = threadIdx.x;
    partial[t] = x[blockIdx.x * blockDim.x + t];
    asc_syncthreads();
    for (uint32_t stride = blockDim.x / 2; stride >= 32; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        asc_syncthreads();
    }
    if (t < 32) {
        float v = partial[t];
        for (int offset = 16; offset > 0; offset /= 2) v += asc_shfl_down(v, offset);
        if (t == 0) sums[blockIdx.x] = v;
    }
}

__global__ void simt_warp(int32_t* out)
{
    const int32_t lane = laneid();
    int32_t* mine = out + threadIdx.x * 8;
    mine[0] = asc_shfl(lane * 10, 3);
    mine[1] = asc_shfl_up(lane, 1u);
    mine[2] = asc_shfl_down(lane, 2u, 8);
    mine[3] = asc_shfl_xor(lane, 1);
    mine[4] = asc_reduce_add(lane);
    mine[5] = static_cast<int32_t>(asc_ballot(lane % 2 == 0));
    mine[6] = asc_all(lane < 100);
    mine[7] = asc_any(lane == 5);
}

__global__ void simt_histogram(const uint8_t* data, uint32_t n, uint32_t* bins)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        asc_atomic_add(&bins[data[i] % 16], 1);  // an int literal for a uint32_t*, as samples write it
        // A compare-and-swap loop that learns the current value from the swap's result (a plain
        // read of bins[16] would race with the other blocks' swaps).
        uint32_t seen = 0;
        for (uint32_t found; (found = asc_atomic_cas(&bins[16], seen, seen + 1)) != seen;) seen = found;
    }
}

__simt_vf__ __launch_bounds__(256) inline void simt_vf_body(uint32_t* out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * 100000 + threadIdx.x + gridDim.x * 1000;
}

__global__ __vector__ void simt_vf_caller(uint32_t* out, uint32_t threads)
{
    asc_vf_call<simt_vf_body>(dim3(threads), out);
}

__global__ void simt_unreached_barrier()
{
    if (threadIdx.x == 0) return;
    asc_syncthreads();
}

__global__ void simt_deadlock()
{
    if (threadIdx.x == 0) {
        (void)asc_shfl(1, 1);
    } else {
        asc_syncthreads();
    }
}

uint32_t launch_simt_add(uint32_t blocks, uint32_t threads, void* stream, const float* x, const float* y, float* z, uint32_t n)
{
    return simt_add<<<blocks, threads, 0, stream>>>(x, y, z, n);
}
uint32_t launch_simt_index_2d(void* stream, uint32_t* out, uint32_t width, uint32_t height)
{
    return simt_index_2d<<<dim3((width + 15) / 16), dim3(16, height), 0, stream>>>(out, width, height);
}
uint32_t launch_simt_block_sum(uint32_t blocks, void* stream, const float* x, float* sums)
{
    return simt_block_sum<<<blocks, 1024, 1024 * sizeof(float), stream>>>(x, sums);
}
uint32_t launch_simt_warp(uint32_t threads, void* stream, int32_t* out)
{
    return simt_warp<<<1, threads, 0, stream>>>(out);
}
uint32_t launch_simt_histogram(uint32_t blocks, void* stream, const uint8_t* data, uint32_t n, uint32_t* bins)
{
    return simt_histogram<<<blocks, 256, 0, stream>>>(data, n, bins);
}
uint32_t launch_simt_vf(uint32_t blocks, uint32_t threads, void* stream, uint32_t* out)
{
    return simt_vf_caller<<<blocks, nullptr, stream>>>(out, threads);
}
uint32_t launch_simt_unreached_barrier(void* stream)
{
    return simt_unreached_barrier<<<2, 64, 0, stream>>>();
}
uint32_t launch_simt_deadlock(void* stream)
{
    return simt_deadlock<<<1, 32, 0, stream>>>();
}
uint32_t launch_simt_too_many_threads(void* stream)
{
    return simt_add<<<1, 4096, 0, stream>>>(nullptr, nullptr, nullptr, 0);
}
