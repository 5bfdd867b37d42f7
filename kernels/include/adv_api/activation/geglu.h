#pragma once
// GeGLU (CANN's adv_api/activation/geglu.h): dst = src0 * Gelu(src1), Gelu's tanh approximation;
// half and float computed in float.
#include "adv_api/activation/geglu_tiling.h"
#include "adv_api/activation/gelu.h"
#include "canopy/adv/adv_common.h"

namespace canopy::adv {
template <typename T>
inline void geglu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t calCount) {
    static_assert(is_half_or_float<T>, "GeGLU supports half and float");
    binary_elementwise("GeGLU", "GetGeGLUMaxMinTmpSize", dst, src0, src1, tmp,
                       canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::geglu, sizeof(T)), calCount,
                       [](const auto& a, const auto& b) { return a * gelu_tanh()(b); });
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount) {
    canopy::adv::geglu(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, uint32_t calCount) {
    canopy::adv::geglu(dstTensor, srcTensor0, srcTensor1, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::geglu(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1) {
    canopy::adv::geglu(dstTensor, srcTensor0, srcTensor1, nullptr, srcTensor0.GetSize());
}

}  // namespace AscendC
