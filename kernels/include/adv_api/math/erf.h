#pragma once
// Erf (CANN's adv_api/math/erf.h): the error function; half and float, computed in float.
#include <cmath>

#include "adv_api/math/erf_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

enum class ErfAlgo {
    PADE_APPROXIMATION = 0,
    SUBSECTION_POLYNOMIAL_APPROXIMATION,
};
struct ErfConfig {
    ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

}  // namespace AscendC

namespace canopy::adv {
inline auto erf_function() {
    return canopy::adv::each([](auto v) { return std::erf(v); });
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Erf supports half and float");
    canopy::adv::unary_elementwise("Erf", "GetErfMaxMinTmpSize", dstTensor, srcTensor, &sharedTmpBuffer,
                                   canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::erf, sizeof(T)),
                                   calCount, canopy::adv::erf_function());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Erf<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Erf supports half and float");
    canopy::adv::unary_elementwise("Erf", "GetErfMaxMinTmpSize", dstTensor, srcTensor, nullptr,
                                   canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::erf, sizeof(T)),
                                   calCount, canopy::adv::erf_function());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Erf<T, isReuseSource, config>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
