/*
 * The add_custom kernel in the shape of the official samples: 8 blocks, each adding its slice of
 * x and y into z, plus the host-side launch function the samples' main calls. Plain GM indexing
 * with block_idx stands in for the TPipe/TQue pipeline of the kernel API.
 */
#include "kernel_shim.h"  // the samples include "kernel_operator.h"

namespace {
constexpr int32_t TOTAL_LENGTH = 8 * 2048;                     // total length of data
constexpr int32_t USE_CORE_NUM = 8;                            // num of core used
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // length computed of each core
}  // namespace

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    __gm__ float* xGm = (__gm__ float*)x + BLOCK_LENGTH * block_idx;
    __gm__ float* yGm = (__gm__ float*)y + BLOCK_LENGTH * block_idx;
    __gm__ float* zGm = (__gm__ float*)z + BLOCK_LENGTH * block_idx;
    for (int32_t i = 0; i < BLOCK_LENGTH; i++) {
        zGm[i] = xGm[i] + yGm[i];
    }
}

void add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z)
{
    add_custom<<<blockDim, nullptr, stream>>>(x, y, z);
}
