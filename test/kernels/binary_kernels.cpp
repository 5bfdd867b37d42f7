// A kernel library as aclrtBinaryLoadFromFile loads it: a shared library built by
// canopy_add_kernels, whose kernels are registered by name when it is loaded.
#include "kernel_shim.h"

extern "C" __global__ __aicore__ void binary_fill(uint32_t* out, uint32_t base)
{
    out[block_idx] = base + static_cast<uint32_t>(block_idx);
}

// A second kernel, so that lookups by name have a choice.
extern "C" __global__ __aicore__ void binary_axpy(GM_ADDR x, GM_ADDR y, float a, uint32_t n)
{
    const auto* in = reinterpret_cast<const float*>(x);
    auto* out = reinterpret_cast<float*>(y);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) out[i] += a * in[i];
}
