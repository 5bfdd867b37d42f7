#pragma once
// SoftmaxFlashV2 (CANN's adv_api/activation/softmaxflashv2.h): one column block of an online softmax.
// Without isUpdate: max = rowmax(x), dst = e^(x - max), expSum = rowsum(dst). With isUpdate, from the
// running inMax / inExpSum of the previous blocks: max = max(inMax, rowmax(x)), dst = e^(x - max),
// expMax = e^(inMax - max), expSum = expMax * inExpSum + rowsum(dst). Statistics and expMax one
// 32-byte block per row (expMax in the source's type), or one element per row with
// SOFTMAX_OUTPUT_WITHOUT_BRC. half sources are computed in float.
#include "adv_api/activation/softmax_common.h"

namespace canopy::adv {

template <typename T, typename U, bool isUpdate, bool isBasicBlock, const AscendC::SoftmaxConfig& config>
inline void softmax_flash_v2(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& expSum,
                             const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
                             const AscendC::LocalTensor<T>& expMax, const AscendC::LocalTensor<U>& inExpSum,
                             const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::tiling::SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info) {
    static_assert(is_half_or_float<T> && is_half_or_float<U>, "SoftmaxFlashV2 supports half and float");
    const char* api = "SoftmaxFlashV2";
    const SoftmaxShape shape = softmax_shape<T>(api, tiling, info, config.isCheckTiling);
    if constexpr (isBasicBlock) require_basic_block(api, shape);
    AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    constexpr uint32_t per = reduced_stride<U>(config);
    constexpr uint32_t per_t = reduced_stride<T>(config);
    const uint64_t reduced = uint64_t(shape.m) * per;
    const T* s = call.in("srcTensor", src, elements, "the shape");
    const U* in_sum = isUpdate ? call.in("inExpSumTensor", inExpSum, reduced, "the shape") : nullptr;
    const U* in_max = isUpdate ? call.in("inMaxTensor", inMax, reduced, "the shape") : nullptr;
    T* d = call.out("dstTensor", dst, elements, "the shape");
    U* sum_out = call.out("expSumTensor", expSum, reduced, "the shape");
    U* max_out = call.out("maxTensor", max, reduced, "the shape");
    T* exp_max = isUpdate ? call.out("expMaxTensor", expMax, uint64_t(shape.m) * per_t, "the shape")
                          : nullptr;
    const uint32_t min_tmp = sizes::flashv2_min(shape.m, shape.k, sizeof(T), sizeof(U), isBasicBlock, false);
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetSoftMaxFlashV2MinTmpSize");
    } else {
        call.stack(min_tmp, "GetSoftMaxFlashV2MinTmpSize");
    }
    call.issue();
    const RowMatrix x = read_rows(s, shape);
    if constexpr (isUpdate) {
        const Eigen::ArrayXf old_max = read_reduced(in_max, shape.m, per);
        const Eigen::ArrayXf old_sum = read_reduced(in_sum, shape.m, per);
        const Eigen::ArrayXf new_max = x.rowwise().maxCoeff().max(old_max);
        const RowMatrix e = (x.colwise() - new_max).exp();
        const Eigen::ArrayXf scale = (old_max - new_max).exp();
        write_rows(d, shape, e);
        write_reduced(max_out, new_max, per);
        write_reduced(sum_out, Eigen::ArrayXf(scale * old_sum + e.rowwise().sum()), per);
        write_reduced(exp_max, scale, per_t);
    } else {
        const Exponentials ex = exponentials(x);
        write_rows(d, shape, ex.e);
        write_reduced(max_out, ex.max, per);
        write_reduced(sum_out, ex.sum, per);
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV2 computes ND tiles");
    canopy::adv::softmax_flash_v2<T, T, isUpdate, isBasicBlock, config>(dstTensor, expSumTensor, maxTensor, srcTensor,
                                                                        expMaxTensor, inExpSumTensor, inMaxTensor,
                                                                        nullptr, tiling, softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV2 computes ND tiles");
    canopy::adv::softmax_flash_v2<half, float, isUpdate, isBasicBlock, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling,
        softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV2 computes ND tiles");
    canopy::adv::softmax_flash_v2<T, T, isUpdate, isBasicBlock, config>(dstTensor, expSumTensor, maxTensor, srcTensor,
                                                                        expMaxTensor, inExpSumTensor, inMaxTensor,
                                                                        &sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV2 computes ND tiles");
    canopy::adv::softmax_flash_v2<half, float, isUpdate, isBasicBlock, config>(
        dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer,
        tiling, softmaxShapeInfo);
}

}  // namespace AscendC
