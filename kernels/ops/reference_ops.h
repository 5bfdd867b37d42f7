#pragma once
// Canopy's reference operators: Ascend C kernels written the way the official samples write them
// (TPipe / TQue pipelines for the vector operators, L1 / L0 fractals and Mmad for the matmul),
// compiled with g++ against Canopy's kernel_operator.h. Host code launches them with
// ACLRT_LAUNCH_KERNEL(name)(numBlocks, stream, args...). Each kernel's .cpp documents its data
// layout; the tiling structs below are passed by value, as the <<<>>> samples pass theirs.
#include <cstdint>

#include "kernel_operator.h"

// add: z = x + y over `totalLength` elements split evenly over the blocks; each block streams its
// share through double-buffered (BUFFER_NUM = 2) queues in `tileNum` x 2 tiles.
struct AddTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling);       // float
extern "C" __global__ __aicore__ void add_custom_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling);  // half

// add_broadcast: z[r, c] = x[r, c] + y[0, c] on int8 rows whose byte length is not a multiple of 32
// (DataCopyPad in and out); rows are spread over the blocks, the first `rows % blocks` get one more.
struct AddBroadcastTiling {
    uint32_t rows;
    uint32_t columns;
};
extern "C" __global__ __aicore__ void add_broadcast_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                           AddBroadcastTiling tiling);

// Row-wise operators on a [rows, columns] float matrix held in one block's UB.
struct RowsTiling {
    uint32_t rows;
    uint32_t columns;
};
// softmax along each row.
extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling);
// reduce_sum: y[r] = sum of row r (the vector unit's pairwise order).
extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling);
// reduce_max: y[c] = max over rows of x[r, c] (axis 0).
extern "C" __global__ __aicore__ void reduce_max_custom(GM_ADDR x, GM_ADDR y, RowsTiling tiling);

struct NormTiling {
    uint32_t rows;     // B * S
    uint32_t columns;  // H
    float epsilon;
};
// layernorm over the last axis: y = (x - mean) / sqrt(var + eps) * gamma + beta.
extern "C" __global__ __aicore__ void layernorm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       NormTiling tiling);
// rmsnorm over the last axis: y = x / sqrt(mean(x^2) + eps) * gamma.
extern "C" __global__ __aicore__ void rmsnorm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, NormTiling tiling);

// gelu, tanh form: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), on `totalLength` floats.
extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, uint32_t totalLength);

// matmul: C[M, N] (half) = A[M, K] (half, row-major) x B[K, N] (half, row-major), accumulated in
// fp32 on the cube path. Block b computes the singleCoreM x singleCoreN tile (b / nTiles, b % nTiles)
// in baseM x baseN pieces, each accumulated over K in baseK steps through L1 (A1/B1), L0A/L0B and
// L0C. Sizes are multiples of 16; baseM x baseN floats must fit L0C (128 KiB), baseM x baseK and
// baseK x baseN halves L0A / L0B (64 KiB each, double-buffered when they fit twice).
struct MatmulTiling {
    uint32_t M;
    uint32_t N;
    uint32_t K;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t baseM;
    uint32_t baseN;
    uint32_t baseK;
};
extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulTiling tiling);
