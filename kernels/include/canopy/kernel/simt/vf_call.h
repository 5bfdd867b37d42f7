#pragma once
// asc_vf_call<f>(dim3 threads, args...) for a __simt_vf__ function f: the calling block (a SIMD
// kernel on the 950) runs `threads` SIMT threads of f on its vector core and continues once all have
// returned, as the vector core runs a VF to completion before the scalar unit goes on. blockIdx and
// gridDim are the calling block's (block_idx, block_num). The SIMD form (no dim3) is in
// canopy/kernel/ascendc/reg/vf.h.
#include <tuple>
#include <utility>

#include "canopy/kernel/simt/simt.h"

template <auto funcPtr, typename... Args>
inline void asc_vf_call(dim3 threadNums, Args&&... args) {
    auto arguments = std::forward_as_tuple(std::forward<Args>(args)...);
    const auto& block = ::canopy::kernel::current_block();
    ::canopy::kernel::simt::run_threads("asc_vf_call", dim3(static_cast<std::uint32_t>(block.count)), threadNums,
                                        [&]() { std::apply(funcPtr, arguments); });
}
