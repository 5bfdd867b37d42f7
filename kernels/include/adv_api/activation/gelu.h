#pragma once
// Gelu, FasterGelu and FasterGeluV2 (CANN's adv_api/activation/gelu.h), half and float computed in
// float. Gelu is the tanh approximation x / (1 + e^(-sqrt(8/pi) (x + 0.044715 x^3))); FasterGelu
// x / (1 + e^(-1.702 x)); FasterGeluV2 CANN's polynomial, here x * (erf(x / sqrt 2) + 1) / 2,
// the exact Gelu it approximates.
#include <cmath>

#include "adv_api/activation/gelu_tiling.h"
#include "canopy/adv/adv_common.h"

namespace canopy::adv {
inline auto gelu_tanh() {
    return [](const auto& x) {
        using S = typename std::decay_t<decltype(x)>::Scalar;
        return x / (S(1) + (S(-1.5957691216057308) * (x + S(0.044715) * x * x * x)).exp());
    };
}
}  // namespace canopy::adv

#define CANOPY_ADV_GELU(Name, f)                                                                            \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                         \
    __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,             \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {     \
        static_assert(canopy::adv::is_half_or_float<T>, #Name " supports half and float");                  \
        canopy::adv::unary_elementwise(#Name, "GetGeluMaxMinTmpSize", dstLocal, srcLocal, &sharedTmpBuffer, \
                                       canopy::adv::sizes::gelu_min(), dataSize, f);                        \
    }                                                                                                       \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                         \
    __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,             \
                                const uint32_t dataSize) {                                                  \
        static_assert(canopy::adv::is_half_or_float<T>, #Name " supports half and float");                  \
        canopy::adv::unary_elementwise(#Name, "GetGeluMaxMinTmpSize", dstLocal, srcLocal, nullptr,          \
                                       canopy::adv::sizes::gelu_min(), dataSize, f);                        \
    }

namespace AscendC {

CANOPY_ADV_GELU(Gelu, canopy::adv::gelu_tanh())
CANOPY_ADV_GELU(FasterGelu, [](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    return x / (S(1) + (S(-1.702) * x).exp());
})
CANOPY_ADV_GELU(FasterGeluV2, [](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    return S(0.5) * x * (S(1) + x.unaryExpr([](S v) { return S(std::erf(v * S(0.7071067811865476))); }));
})

}  // namespace AscendC

#undef CANOPY_ADV_GELU
