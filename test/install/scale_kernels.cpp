// Two kernels in the style of the official samples: one with a tiling structure passed by value, one
// with scalar parameters. Built by ascendc_library (launched through aclrtlaunch_<kernel>) and by
// ascendc_fatbin_library (loaded with aclrtBinaryLoadFromFile).
#include "kernel_operator.h"
#include "scale_tiling.h"

#if SCALE_KERNELS_TILING_IN != 1
#error "ascendc_compile_definitions did not reach the kernel source"
#endif

// y[i] = x[i] * factor over this block's share of the elements.
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, ScaleTiling tiling)
{
    const uint32_t begin = AscendC::GetBlockIdx() * tiling.elementsPerBlock;
    __gm__ float* in = reinterpret_cast<__gm__ float*>(x) + begin;
    __gm__ float* out = reinterpret_cast<__gm__ float*>(y) + begin;
    for (uint32_t i = 0; i < tiling.elementsPerBlock; ++i) {
        out[i] = in[i] * tiling.factor;
    }
}

// y[i] = base + i, every block writing its own elements.
extern "C" __global__ __aicore__ void iota(__gm__ int32_t* y, int32_t base, uint32_t elementsPerBlock)
{
    const uint32_t begin = AscendC::GetBlockIdx() * elementsPerBlock;
    for (uint32_t i = 0; i < elementsPerBlock; ++i) {
        y[begin + i] = base + static_cast<int32_t>(begin + i);
    }
}
