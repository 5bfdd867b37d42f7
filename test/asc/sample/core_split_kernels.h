#pragma once
// Kernels in the style of catlass: a kernel class with one operator() per core type, chosen by
// g_coreType, a template kernel adapter with an overload, launched from a class template's member
// function in this header; and a template kernel whose argument is deduced at the launch.
#include "acl/acl.h"
#include "kernel_operator.h"

namespace demo {

struct Params {
    GM_ADDR data;   // n floats: each AIV adds one to its share
    GM_ADDR marks;  // one int32 per logical block: its AIC writes blockIdx + 100
    uint32_t n;
};

// Both flavours work: a mix kernel of one AIC and two AIVs a block.
struct AddOneAndMark {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(Params const& params);

    template <>
    __aicore__ inline void operator()<AscendC::AIC>(Params const& params) {
        AscendC::GlobalTensor<int32_t> marks;
        marks.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(params.marks), AscendC::GetBlockNum());
        marks.SetValue(AscendC::GetBlockIdx(), static_cast<int32_t>(AscendC::GetBlockIdx()) + 100);
    }

    template <>
    __aicore__ inline void operator()<AscendC::AIV>(Params const& params) {
        const uint32_t cores = AscendC::GetBlockNum() * AscendC::GetSubBlockNum();
        const uint32_t share = params.n / cores;
        AscendC::GlobalTensor<float> data;
        data.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(params.data) + AscendC::GetBlockIdx() * share, share);
        for (uint32_t i = 0; i < share; ++i) data.SetValue(i, data.GetValue(i) + 1.0f);
    }
};

// Only the vector flavour works: an AIV kernel, numBlocks AIVs.
struct AddBlockIndex {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(Params const& params) {
        if constexpr (CORE_TYPE == AscendC::AIV) {
            AscendC::GlobalTensor<float> data;
            data.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(params.data), params.n);
            data.SetValue(AscendC::GetBlockIdx(), data.GetValue(AscendC::GetBlockIdx()) + AscendC::GetBlockIdx());
        }
    }
};

template <class Operator>
__global__ __aicore__ void KernelAdapter(Params params) {
    Operator op;
    op(params);
}

template <class Operator>
__global__ __aicore__ void KernelAdapter(Params params, uint64_t scale) {
    params.n *= static_cast<uint32_t>(scale);
    Operator op;
    op(params);
}

template <class Operator>
struct Device {
    void operator()(aclrtStream stream, uint32_t blocks, Params params) {
        KernelAdapter<Operator><<<blocks, nullptr, stream>>>(params);
    }
    void operator()(aclrtStream stream, uint32_t blocks, Params params, uint64_t scale) {
        KernelAdapter<Operator><<<blocks, nullptr, stream>>>(params, scale);
    }
};

template <class T>
__global__ __aicore__ void Scale(__gm__ T* data, T factor, uint32_t n) {
    AscendC::GlobalTensor<T> tensor;
    tensor.SetGlobalBuffer(data + AscendC::GetBlockIdx() * n, n);
    for (uint32_t i = 0; i < n; ++i) tensor.SetValue(i, tensor.GetValue(i) * factor);
}

// catlass's grouped matmuls compute `GetBlockIdx() % kTileCount` before a loop that a group without K
// skips: an AI Core's scalar unit divides by zero without trapping.
__global__ __aicore__ void ShuffledTiles(__gm__ float* data, uint32_t tiles) {
    const uint32_t start = AscendC::GetBlockIdx() % tiles;
    AscendC::GlobalTensor<float> tensor;
    tensor.SetGlobalBuffer(data, 1);
    for (uint32_t i = 0; i < tiles; ++i) tensor.SetValue(0, tensor.GetValue(0) + float(start + i));
}

}  // namespace demo
