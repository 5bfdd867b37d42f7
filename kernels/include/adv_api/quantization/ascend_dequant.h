#pragma once
// AscendDequant (CANN adv_api/quantization/ascend_dequant.h): dst[i][j] = src[i][j] * deqScale[j]
// over an int32 source of m rows of n elements (n a multiple of 8), the first calCount elements of
// each row, computed in float and rounded to dstT. dst rows are n rounded up to 32 bytes of dstT.
// DEQUANT_WITH_MULTI_ROW treats the whole tensor as rows of calCount elements.
#include "canopy/adv_norm/kernel_common.h"
#include "canopy/adv_norm/sizes.h"

namespace AscendC {

#ifndef CANOPY_DEQUANT_MODE_DEFINED
#define CANOPY_DEQUANT_MODE_DEFINED
enum class DeQuantMode : uint8_t {
    DEQUANT_WITH_SINGLE_ROW = 0,
    DEQUANT_WITH_MULTI_ROW,
};
#endif

struct DequantParams {
    uint32_t m;         // rows
    uint32_t n;         // elements per row (32-byte aligned)
    uint32_t calCount;  // elements of each row dequantized
};

}  // namespace AscendC

namespace canopy::adv_norm {

template <typename dstT, typename scaleT, AscendC::DeQuantMode mode>
inline void ascend_dequant(const AscendC::LocalTensor<dstT>& dstTensor, const AscendC::LocalTensor<int32_t>& srcTensor,
                           const AscendC::LocalTensor<scaleT>* deqScale, float scalarScale,
                           const AscendC::LocalTensor<uint8_t>* tmp, AscendC::DequantParams params) {
    AdvancedCall call("AscendDequant");
    if constexpr (mode == AscendC::DeQuantMode::DEQUANT_WITH_MULTI_ROW) {
        // {1, m * n, n}: rows of calCount.
        if (params.m == 1 && params.calCount > 0 && params.n % params.calCount == 0 && params.n != params.calCount) {
            params = {params.n / params.calCount, params.calCount, params.calCount};
        }
    }
    call.require(params.m >= 1 && params.n >= 1, "params {m ", params.m, ", n ", params.n, "} must not be empty");
    call.require(params.n * sizeof(int32_t) % 32 == 0, "params.n ", params.n,
                 " must make 32-byte rows of int32 (a multiple of 8)");
    call.require(params.calCount >= 1 && params.calCount <= params.n, "params.calCount ", params.calCount,
                 " must be in [1, n ", params.n, "]");
    const uint32_t dst_row = sizes::round_up(params.n, block_elems<dstT>);
    const int32_t* src = call.in("srcTensor", srcTensor, uint64_t(params.m) * params.n);
    dstT* dst = call.out("dstTensor", dstTensor, uint64_t(params.m - 1) * dst_row + params.calCount);
    const scaleT* scales = deqScale ? call.in("deqScale", *deqScale, params.calCount) : nullptr;
    if (tmp != nullptr) call.tmp("sharedTmpBuffer", *tmp, sizes::ascend_dequant_min(params.n));
    call.issue();
    for (uint32_t i = 0; i < params.m; ++i) {
        for (uint32_t j = 0; j < params.calCount; ++j) {
            const float scale = scales ? static_cast<float>(scales[j]) : scalarScale;
            dst[uint64_t(i) * dst_row + j] = static_cast<dstT>(static_cast<float>(src[uint64_t(i) * params.n + j]) * scale);
        }
    }
}

}  // namespace canopy::adv_norm

namespace AscendC {

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer,
                                                         params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params) {
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr, params);
}
// calCount form: one row of calCount elements.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount) {
    const uint32_t n = canopy::adv_norm::sizes::round_up(calCount, 8);
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer,
                                                         {1, n, calCount});
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
    const uint32_t n = canopy::adv_norm::sizes::round_up(calCount, 8);
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr,
                                                         {1, n, calCount});
}
// Whole tensors: rows as long as the scale.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    const uint32_t n = deqScale.GetSize();
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer,
                                                         {n == 0 ? 0 : srcTensor.GetSize() / n, n, n});
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale) {
    const uint32_t n = deqScale.GetSize();
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr,
                                                         {n == 0 ? 0 : srcTensor.GetSize() / n, n, n});
}
// A scalar scale.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, static_cast<float>(deqScale),
                                                         &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params) {
    canopy::adv_norm::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, static_cast<float>(deqScale),
                                                         nullptr, params);
}

}  // namespace AscendC
