#pragma once
// Swish (CANN's adv_api/activation/swish.h): x / (1 + e^(-beta x)); half and float computed in float.
#include "adv_api/activation/swish_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const T scalarValue) {
    static_assert(canopy::adv::is_half_or_float<T>, "Swish supports half and float");
    const auto beta = static_cast<canopy::adv::compute_t<T>>(scalarValue);
    canopy::adv::unary_elementwise("Swish", "GetSwishTmpSize", dstLocal, srcLocal, nullptr, 0, dataSize,
                                   [beta](const auto& x) {
                                       using S = typename std::decay_t<decltype(x)>::Scalar;
                                       return x / (S(1) + (-beta * x).exp());
                                   });
}

}  // namespace AscendC
