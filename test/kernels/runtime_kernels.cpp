// Kernels of the runtime-control tests, written as Ascend C sources are; the kernel compiler
// (canopy_add_kernels) rewrites the launches and registers the kernels.
#include "runtime_kernels.h"
#include "launch_result.h"

#include <thread>

#include "acl/acl.h"

extern "C" __global__ __aicore__ void concurrency_probe(ConcurrencyProbe* probe) { run_concurrency_probe(probe); }

extern "C" __global__ __aicore__ void holding_kernel(Hold* hold)
{
    hold->entered.fetch_add(1);
    while (!hold->released.load()) std::this_thread::yield();
}

extern "C" __global__ __aicore__ void square_scale(float* in, float* out, float factor)
{
    out[block_idx] = in[block_idx] * factor * factor;
}

extern "C" __global__ __aicore__ void always_faulting()
{
    canopy::kernel::raise(ACL_ERROR_RT_AICORE_EXCEPTION, "DataCopy", "a fault on purpose");
}

uint32_t launch_concurrency_probe(uint32_t numBlocks, void* stream, ConcurrencyProbe* probe)
{
    clear_launch_error();
    concurrency_probe<<<numBlocks, 0, stream>>>(probe);
    return launch_result();
}

uint32_t launch_holding(uint32_t numBlocks, void* stream, Hold* hold)
{
    clear_launch_error();
    holding_kernel<<<numBlocks, 0, stream>>>(hold);
    return launch_result();
}

uint32_t launch_square_scale(uint32_t numBlocks, void* stream, float* in, float* out, float factor)
{
    clear_launch_error();
    square_scale<<<numBlocks, 0, stream>>>(in, out, factor);
    return launch_result();
}

uint32_t launch_always_faulting(uint32_t numBlocks, void* stream)
{
    clear_launch_error();
    always_faulting<<<numBlocks, 0, stream>>>();
    return launch_result();
}
