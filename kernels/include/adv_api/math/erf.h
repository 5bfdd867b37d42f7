#pragma once
// Erf (CANN's adv_api/math/erf.h): the error function; half and float, computed in float.
#include <cmath>

#include "adv_api/math/erf_tiling.h"
#include "adv_api/utils/adv_common.h"

namespace AscendC {

enum class ErfAlgo {
    PADE_APPROXIMATION = 0,
    SUBSECTION_POLYNOMIAL_APPROXIMATION,
};
struct ErfConfig {
    ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

namespace canopy_erf {
inline auto function() {
    return canopy::kernel::adv::each([](auto v) { return std::erf(v); });
}
}  // namespace canopy_erf

template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(canopy::kernel::adv::is_half_or_float<T>, "Erf supports half and float");
    canopy::kernel::adv::unary_elementwise("Erf", "GetErfMaxMinTmpSize", dstTensor, srcTensor, &sharedTmpBuffer,
                                           canopy::kernel::adv::sizes::erf_min(sizeof(T)), calCount,
                                           canopy_erf::function());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer) {
    Erf<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    static_assert(canopy::kernel::adv::is_half_or_float<T>, "Erf supports half and float");
    canopy::kernel::adv::unary_elementwise("Erf", "GetErfMaxMinTmpSize", dstTensor, srcTensor, nullptr,
                                           canopy::kernel::adv::sizes::erf_min(sizeof(T)), calCount,
                                           canopy_erf::function());
}
template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
__aicore__ inline void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Erf<T, isReuseSource, config>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
