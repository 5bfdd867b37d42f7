// A kernel that takes its sizes through pointer parameters, as the official samples' tiling
// placeholders do (aclrtKernelArgsAppendPlaceHolder).
#include "kernel_shim.h"

extern "C" __global__ __aicore__ void fill_from_placeholders(GM_ADDR out, __gm__ int32_t* count, __gm__ int32_t* value)
{
    if (block_idx != 0) return;
    auto* values = reinterpret_cast<int32_t*>(out);
    for (int32_t i = 0; i < *count; ++i) values[i] = *value + i;
}
