// The kernel of the fault-injection test: each block counts itself, so a launch that ran shows as
// its block count and a launch that was refused shows as nothing.
#include <atomic>
#include <cstdint>

#include "kernel_shim.h"

extern "C" __global__ __aicore__ void count_block_runs(GM_ADDR counter)
{
    std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(counter)).fetch_add(1, std::memory_order_relaxed);
}
