#pragma once
// Kernels of the launch tests (launch_kernels.cpp, cooperative_kernels.cpp) and the host functions
// that launch them with <<<>>>, compiled by canopy_add_kernels.
#include <cstdint>

#include "kernel_shim.h"

// Per-launch record of what the blocks saw.
struct BlockRecord {
    uint32_t hits;           // how many times the block ran
    uint32_t wrong_count;    // block_num or the context's count differed from the launch's
};

// What a block saw of its Unified Buffer.
struct UbRecord {
    uint64_t address;
    uint64_t bytes;
};

// A by-value struct parameter, as tiling data is passed.
struct Tiling {
    uint32_t total;
    uint32_t tile;
    float scale;
};

extern "C" {
__global__ __aicore__ void count_blocks(GM_ADDR records, uint32_t expected_blocks);
__global__ __aicore__ void empty_kernel();
// Raises a KernelFault in block `failing_block` (as the kernel API does on misuse).
__global__ __aicore__ void faulting_kernel(uint32_t failing_block);
// Leaves a deferred fault in block `failing_block` (as a destructor that finds misuse does).
__global__ __aicore__ void deferring_kernel(uint32_t failing_block);
// Throws a std::runtime_error in block `failing_block`.
__global__ __aicore__ void throwing_kernel(uint32_t failing_block);
__global__ __aicore__ void record_ub(UbRecord* records);
// out[i] = (scale * x[i] + offset) * sign for i in [0, n), split across blocks; mixes parameter sizes.
__global__ __aicore__ void scaled_copy(GM_ADDR x, GM_ADDR out, uint32_t n, float scale, int16_t sign, uint64_t offset);
__global__ __aicore__ void tiled_fill(float* out, Tiling tiling);
// Calls SyncAll between two phases; cooperative (the file calls SyncAll).
__global__ __aicore__ void two_phase(uint32_t* slots, uint32_t* mismatches);
// Returns before the SyncAll that the other blocks wait in when block_idx == leaver.
__global__ __aicore__ void skips_sync(uint32_t leaver);
// Calls canopy::kernel::sync_all() without being registered cooperative.
__global__ __aicore__ void plain_sync(uint32_t* after);
}

// Host functions that launch with <<<>>> (launch_kernels.cpp); they return the launch's result.
uint32_t launch_count_blocks(uint32_t numBlocks, void* stream, BlockRecord* records);
uint32_t launch_count_blocks_with_ub(uint32_t numBlocks, uint32_t dynUBufSize, void* stream, BlockRecord* records);
int32_t launch_record_ub(uint32_t numBlocks, uint32_t dynUBufSize, void* stream, UbRecord* records);
uint32_t launch_faulting(uint32_t numBlocks, void* stream, uint32_t failing_block);
uint32_t launch_two_phase(uint32_t numBlocks, void* stream, uint32_t* slots, uint32_t* mismatches);
uint32_t launch_skips_sync(uint32_t numBlocks, void* stream, uint32_t leaver);
