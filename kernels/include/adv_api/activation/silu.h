#pragma once
// Silu (CANN's adv_api/activation/silu.h): x / (1 + e^-x); half and float computed in float.
#include "adv_api/activation/silu_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
    static_assert(canopy::adv::is_half_or_float<T>, "Silu supports half and float");
    canopy::adv::unary_elementwise("Silu", "GetSiluTmpSize", dstLocal, srcLocal, nullptr, 0, dataSize,
                                   [](const auto& x) {
                                       using S = typename std::decay_t<decltype(x)>::Scalar;
                                       return x / (S(1) + (-x).exp());
                                   });
}

}  // namespace AscendC
