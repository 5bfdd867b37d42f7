#pragma once
// SwiGLU (CANN's adv_api/activation/swiglu.h): dst = src0 * Swish(src1, beta)
// = src0 * src1 / (1 + e^(-beta src1)); half and float computed in float.
#include "adv_api/activation/swiglu_tiling.h"
#include "canopy/adv/adv_common.h"

namespace canopy::adv {
template <typename T>
inline void swiglu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                   const AscendC::LocalTensor<T>& src1, float beta, const AscendC::LocalTensor<uint8_t>* tmp,
                   uint32_t calCount) {
    static_assert(is_half_or_float<T>, "SwiGLU supports half and float");
    binary_elementwise("SwiGLU", "GetSwiGLUMaxMinTmpSize", dst, src0, src1, tmp,
                       canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::swiglu, sizeof(T)), calCount,
                       [beta](const auto& a, const auto& b) {
                           using S = typename std::decay_t<decltype(a)>::Scalar;
                           return a * b / (S(1) + (S(-beta) * b).exp());
                       });
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
                              const float& scalarValue) {
    canopy::adv::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
    canopy::adv::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    canopy::adv::swiglu(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount);
}

}  // namespace AscendC
