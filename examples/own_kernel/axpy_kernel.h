// The axpy kernel, z = alpha * x + y on float vectors, as its host code sees it.
#pragma once
#include <cstdint>

#include "kernel_operator.h"

// Elements a block computes in one step: each of the kernel's queues holds two tiles of this many
// floats in the block's Unified Buffer. A launch's length must be a multiple of numBlocks * tile.
constexpr uint32_t axpy_tile_length = 2048;

extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, uint32_t length);
