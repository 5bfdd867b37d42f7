#pragma once
// Exp (CANN's adv_api/math/exp.h): e^x. CANN splits x into its integer and fractional parts and
// expands e^frac in a Taylor series of taylorExpandLevel terms (0: the vector unit's Exp, no
// temporary buffer); here e^x is computed in float, which the expansion approximates.
#include <cmath>

#include "adv_api/math/exp_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Exp supports half and float");
    const uint32_t min_tmp = taylorExpandLevel == 0 ? 0 : canopy::adv::sizes::exp_min(sizeof(T), isReuseSource);
    canopy::adv::unary_elementwise("Exp", "GetExpMaxMinTmpSize", dstLocal, srcLocal, &sharedTmpBuffer, min_tmp,
                                   calCount, [](const auto& x) { return x.exp(); });
}

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Exp supports half and float");
    const uint32_t min_tmp = taylorExpandLevel == 0 ? 0 : canopy::adv::sizes::exp_min(sizeof(T), isReuseSource);
    canopy::adv::unary_elementwise("Exp", "GetExpMaxMinTmpSize", dstLocal, srcLocal, nullptr, min_tmp, calCount,
                                   [](const auto& x) { return x.exp(); });
}

}  // namespace AscendC
