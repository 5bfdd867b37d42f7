#pragma once
// Axpy (CANN's adv_api/math/axpy.h): dst += src * scalar, src and scalar of type U (half or float),
// dst of type T (half or float); computed in float.
#include <type_traits>

#include "adv_api/math/axpy_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T> && canopy::adv::is_half_or_float<U>, "Axpy supports half and float");
    static_assert(sizeof(T) >= sizeof(U), "Axpy: dst must be at least as wide as src (half->half, half->float, float->float)");
    namespace adv = canopy::adv;
    adv::AdvancedCall call("Axpy");
    const U* s = call.in("srcTensor", srcTensor, calCount, "calCount");
    T* d = call.inout("dstTensor", dstTensor, calCount, "calCount");
    call.tmp("sharedTmpBuffer", sharedTmpBuffer, adv::sizes::axpy_min(sizeof(U)), "GetAxpyMaxMinTmpSize");
    call.issue();
    const int64_t n = calCount;
    const float scalar = static_cast<float>(scalarValue);
    adv::out(d, n, Eigen::ArrayXf(adv::in(d, n).template cast<float>() + adv::in(s, n).template cast<float>() * scalar));
}

}  // namespace AscendC
