// Kernels of capture_test, launched with <<<>>> (compiled by canopy_add_kernels' kernel compiler).
#include "capture_kernels.h"
#include "launch_result.h"

#include "acl/error_codes/rt_error_codes.h"

extern "C" __global__ __aicore__ void capture_axpy(GM_ADDR x, GM_ADDR y, float a, uint32_t n)
{
    const auto* in = reinterpret_cast<const float*>(x);
    auto* out = reinterpret_cast<float*>(y);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) out[i] += a * in[i];
}

extern "C" __global__ __aicore__ void capture_fault_if(GM_ADDR trigger)
{
    if (*reinterpret_cast<const uint32_t*>(trigger) != 0) {
        canopy::kernel::raise(ACL_ERROR_RT_AICORE_EXCEPTION, "capture_fault_if", "the trigger was set");
    }
}

uint32_t launch_capture_axpy(uint32_t numBlocks, void* stream, const float* x, float* y, float a, uint32_t n)
{
    clear_launch_error();
    capture_axpy<<<numBlocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)y, a, n);
    return launch_result();
}

uint32_t launch_capture_fault_if(void* stream, const uint32_t* trigger)
{
    clear_launch_error();
    capture_fault_if<<<1, nullptr, stream>>>((GM_ADDR)trigger);
    return launch_result();
}
