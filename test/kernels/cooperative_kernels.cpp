// Kernels that synchronize all their blocks. This file calls SyncAll, so canopy_add_kernels
// registers its kernels cooperative: all their blocks run at once.
#include <atomic>

#include "launch_kernels.h"

namespace {
// AscendC::SyncAll() as kernel_operator.h provides it.
void SyncAll() { canopy::kernel::sync_all(); }
}  // namespace

extern "C" __global__ __aicore__ void two_phase(uint32_t* slots, uint32_t* mismatches)
{
    std::atomic_ref<uint32_t>(slots[block_idx]).store(static_cast<uint32_t>(block_idx) + 1, std::memory_order_relaxed);
    SyncAll();
    // Every block has written its slot before any block gets here.
    for (int64_t other = 0; other < block_num; ++other) {
        if (std::atomic_ref<uint32_t>(slots[other]).load(std::memory_order_relaxed) != other + 1) {
            std::atomic_ref<uint32_t>(*mismatches).fetch_add(1, std::memory_order_relaxed);
        }
    }
    SyncAll();
}

extern "C" __global__ __aicore__ void skips_sync(uint32_t leaver)
{
    if (block_idx == leaver) return;
    SyncAll();
}

uint32_t launch_two_phase(uint32_t numBlocks, void* stream, uint32_t* slots, uint32_t* mismatches)
{
    return two_phase<<<numBlocks, nullptr, stream>>>(slots, mismatches);
}

uint32_t launch_skips_sync(uint32_t numBlocks, void* stream, uint32_t leaver)
{
    return skips_sync<<<numBlocks, nullptr, stream>>>(leaver);
}
