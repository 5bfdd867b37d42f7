// Kernels of the launch tests, written as Ascend C sources are (GM indexing by block_idx), with the
// host functions that launch them with <<<>>>; the kernel compiler (canopy_add_kernels) rewrites the
// launches and registers the kernels.
#include "launch_kernels.h"
#include "launch_result.h"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "acl/acl.h"

extern "C" __global__ __aicore__ void count_blocks(GM_ADDR records, uint32_t expected_blocks)
{
    auto* record = reinterpret_cast<BlockRecord*>(records) + block_idx;
    // Blocks write their own record; the atomic makes a block that ran twice visible as 2.
    std::atomic_ref<uint32_t>(record->hits).fetch_add(1, std::memory_order_relaxed);
    const auto& block = canopy::kernel::current_block();
    if (block_num != expected_blocks || block.count != block_num || block.index != block_idx) {
        record->wrong_count = 1;
    }
}

extern "C" __global__ __aicore__ void empty_kernel() {}

extern "C" __global__ __aicore__ void faulting_kernel(uint32_t failing_block)
{
    if (block_idx == failing_block) {
        canopy::kernel::raise(ACL_ERROR_RT_AICORE_EXCEPTION, "DataCopy",
                              "count 7 of float (28 bytes) is not a multiple of 32 bytes");
    }
}

extern "C" __global__ __aicore__ void deferring_kernel(uint32_t failing_block)
{
    if (block_idx == failing_block) {
        canopy::kernel::defer_fault(ACL_ERROR_RT_AICORE_EXCEPTION, "TPipe", "2 buffers still held at kernel end");
    }
}

extern "C" __global__ __aicore__ void throwing_kernel(uint32_t failing_block)
{
    if (block_idx == failing_block) throw std::runtime_error("vector index out of range");
}

extern "C" __global__ __aicore__ void record_ub(UbRecord* records)
{
    const auto& block = canopy::kernel::current_block();
    records[block_idx].address = reinterpret_cast<uint64_t>(block.ub);
    records[block_idx].bytes = block.ub_bytes;
    // The whole UB is the block's to write.
    std::memset(block.ub, static_cast<int>(block_idx & 0xff), block.ub_bytes);
}

extern "C" __global__ __aicore__ void scaled_copy(GM_ADDR x, GM_ADDR out, uint32_t n, float scale, int16_t sign,
                                                  uint64_t offset)
{
    const auto* in = reinterpret_cast<const float*>(x);
    auto* result = reinterpret_cast<float*>(out);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) {
        result[i] = (scale * in[i] + static_cast<float>(offset)) * sign;
    }
}

extern "C" __global__ __aicore__ void tiled_fill(float* out, Tiling tiling)
{
    for (uint32_t i = static_cast<uint32_t>(block_idx) * tiling.tile; i < tiling.total && i < (block_idx + 1) * tiling.tile; ++i) {
        out[i] = tiling.scale * static_cast<float>(i);
    }
}

extern "C" __global__ __aicore__ void plain_sync(uint32_t* after)
{
    canopy::kernel::sync_all();
    after[block_idx] = 1;
}

uint32_t launch_count_blocks(uint32_t numBlocks, void* stream, BlockRecord* records)
{
    // Older samples pass nullptr for the dynamic UB size. The arguments convert as in a call, as in
    // bisheng: device memory (void*) is cast for a GM_ADDR parameter, as the samples cast it.
    clear_launch_error();
    count_blocks<<<numBlocks, nullptr, stream>>>(static_cast<GM_ADDR>(static_cast<void*>(records)), numBlocks);
    return launch_result();
}

uint32_t launch_count_blocks_with_ub(uint32_t numBlocks, uint32_t dynUBufSize, void* stream, BlockRecord* records)
{
    clear_launch_error();
    count_blocks<<<numBlocks, dynUBufSize, stream>>>(reinterpret_cast<uint8_t*>(records), numBlocks);
    return launch_result();
}

int32_t launch_record_ub(uint32_t numBlocks, uint32_t dynUBufSize, void* stream, UbRecord* records)
{
    clear_launch_error();
    record_ub<<<numBlocks, dynUBufSize, stream>>>(records);
    return (int32_t)launch_result();
}

uint32_t launch_faulting(uint32_t numBlocks, void* stream, uint32_t failing_block)
{
    clear_launch_error();
    faulting_kernel<<<numBlocks, 0, stream>>>(failing_block);
    return launch_result();
}
