// Kernels that synchronize all their blocks. They reach AscendC::SyncAll, so the kernel compiler
// registers them cooperative: all their blocks run at once.
#include <atomic>

#include "launch_kernels.h"
#include "launch_result.h"

namespace AscendC {
// AscendC::SyncAll() as kernel_operator.h provides it (the kernel compiler knows it by that name).
inline void SyncAll() { canopy::kernel::sync_all(); }
}  // namespace AscendC
using AscendC::SyncAll;

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
    clear_launch_error();
    two_phase<<<numBlocks, nullptr, stream>>>(slots, mismatches);
    return launch_result();
}

uint32_t launch_skips_sync(uint32_t numBlocks, void* stream, uint32_t leaver)
{
    clear_launch_error();
    skips_sync<<<numBlocks, nullptr, stream>>>(leaver);
    return launch_result();
}
