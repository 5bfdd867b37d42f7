#pragma once
// Xor (CANN's adv_api/math/xor.h): bitwise exclusive or of int16_t or uint16_t tensors.
#include <cstdint>
#include <type_traits>

#include "adv_api/math/xor_tiling.h"
#include "canopy/adv/adv_common.h"

namespace canopy::adv {
template <typename T>
inline void xor_tensors(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                        const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp,
                        uint32_t calCount) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>, "Xor supports int16_t and uint16_t");
    binary_elementwise("Xor", "GetXorMaxMinTmpSize", dst, src0, src1, tmp, sizes::xor_min(), calCount,
                       [](const auto& a, const auto& b) {
                           return a.binaryExpr(b, [](T x, T y) { return static_cast<T>(x ^ y); });
                       });
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount) {
    canopy::adv::xor_tensors(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::xor_tensors(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    canopy::adv::xor_tensors(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor) {
    canopy::adv::xor_tensors(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize());
}

}  // namespace AscendC
