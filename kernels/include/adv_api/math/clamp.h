#pragma once
// ClampMax / ClampMin (CANN's adv_api/math/clamp.h): dst = min(src, scalar) / max(src, scalar); half
// and float. NaN sources stay NaN, as the vector unit's compare-and-select leaves them.
#include "adv_api/math/clamp_tiling.h"
#include "canopy/adv/adv_common.h"

namespace canopy::adv {
template <bool upper, typename T>
inline void clamp(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint8_t>* tmp, const T scalar, const uint32_t calCount) {
    static_assert(is_half_or_float<T>, "ClampMax and ClampMin support half and float");
    const auto bound = static_cast<compute_t<T>>(scalar);
    unary_elementwise(api, "GetClampMaxMinTmpSize", dst, src, tmp, sizes::clamp_min(sizeof(T)), calCount,
                      [bound](const auto& x) {
                          if constexpr (upper) {
                              return (x > bound).select(bound, x);
                          } else {
                              return (x < bound).select(bound, x);
                          }
                      });
}
}  // namespace canopy::adv

namespace AscendC {

struct ClampConfig {
    bool isReuseSource;
};
constexpr ClampConfig DEFAULT_CLAMP_CONFIG = {false};

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    canopy::adv::clamp<true>("ClampMax", dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
    canopy::adv::clamp<true>("ClampMax", dstTensor, srcTensor, nullptr, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    canopy::adv::clamp<false>("ClampMin", dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
    canopy::adv::clamp<false>("ClampMin", dstTensor, srcTensor, nullptr, scalar, calCount);
}

}  // namespace AscendC
