#pragma once
// Ceil (CANN's adv_api/math/ceil.h): the smallest integer not below x; half and float.
#include <cmath>

#include "adv_api/math/ceil_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Ceil supports half and float");
    canopy::adv::unary_elementwise("Ceil", "GetCeilMaxMinTmpSize", dstTensor, srcTensor, &sharedTmpBuffer,
                                   canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::ceil, sizeof(T)),
                                   calCount, [](const auto& x) { return x.ceil(); });
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Ceil supports half and float");
    canopy::adv::unary_elementwise("Ceil", "GetCeilMaxMinTmpSize", dstTensor, srcTensor, nullptr,
                                   canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::ceil, sizeof(T)),
                                   calCount, [](const auto& x) { return x.ceil(); });
}

}  // namespace AscendC
