#pragma once
// AscendDequant (CANN adv_api/quantization/ascend_dequant.h): dst[i][j] = src[i][j] * deqScale[j]
// over an int32 source of m rows of n elements (n a multiple of 8), the first calCount elements of
// each row, computed in float and rounded to dstT. dst rows are n rounded up to 32 bytes of dstT.
// DEQUANT_WITH_MULTI_ROW treats the whole tensor as rows of calCount elements.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

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

namespace canopy::adv {

template <typename dstT, typename scaleT, AscendC::DeQuantMode mode>
inline void ascend_dequant(const AscendC::LocalTensor<dstT>& dstTensor, const AscendC::LocalTensor<int32_t>& srcTensor,
                           const AscendC::LocalTensor<scaleT>* deqScale, float scalarScale,
                           const AscendC::LocalTensor<uint8_t>* tmp, AscendC::DequantParams params) {
    static_assert(std::is_same_v<scaleT, float> || std::is_same_v<scaleT, half> || std::is_same_v<scaleT, bfloat16_t>,
                  "Canopy's AscendDequant takes float, half or bfloat16 scales (not the packed uint64 form)");
    static_assert(std::is_same_v<dstT, float> || std::is_same_v<dstT, half> || std::is_same_v<dstT, bfloat16_t>,
                  "AscendDequant writes float, half or bfloat16");
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
    using Rows = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Rows values = Eigen::Map<const Eigen::Array<int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                                   Eigen::OuterStride<>>(src, params.m, params.calCount, Eigen::OuterStride<>(params.n))
                            .template cast<float>();
    Rows out(params.m, params.calCount);
    if (scales) {
        const Eigen::Array<float, 1, Eigen::Dynamic> scale_row =
            Eigen::Map<const Eigen::Array<scaleT, 1, Eigen::Dynamic>>(scales, params.calCount).template cast<float>();
        out = values.rowwise() * scale_row;
    } else {
        out = values * scalarScale;
    }
    Eigen::Map<Eigen::Array<dstT, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>(
        dst, params.m, params.calCount, Eigen::OuterStride<>(dst_row)) = out.template cast<dstT>();
}

}  // namespace canopy::adv

namespace AscendC {

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params) {
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr, params);
}
// calCount form: one row of calCount elements.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount) {
    const uint32_t n = canopy::adv::sizes::round_up(calCount, 8);
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer,
                                                    {1, n, calCount});
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
    const uint32_t n = canopy::adv::sizes::round_up(calCount, 8);
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr, {1, n, calCount});
}
// Whole tensors: rows as long as the scale.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    const uint32_t n = deqScale.GetSize();
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, &sharedTmpBuffer,
                                                    {n == 0 ? 0 : srcTensor.GetSize() / n, n, n});
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale) {
    const uint32_t n = deqScale.GetSize();
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, &deqScale, 0.0f, nullptr,
                                                    {n == 0 ? 0 : srcTensor.GetSize() / n, n, n});
}
// A scalar scale.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, static_cast<float>(deqScale),
                                                    &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params) {
    canopy::adv::ascend_dequant<dstT, scaleT, mode>(dstTensor, srcTensor, nullptr, static_cast<float>(deqScale),
                                                    nullptr, params);
}

}  // namespace AscendC
