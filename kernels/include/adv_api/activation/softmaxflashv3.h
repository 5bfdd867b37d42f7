#pragma once
// SoftmaxFlashV3 (CANN's adv_api/activation/softmaxflashv3.h): FlashAttention's online softmax with
// the source re-centred on running means; T is half (the source, dst, expMax), U float (mean, sum,
// max, one 32-byte block per row), a = params.alpha, n = params.loopCnt:
//   local means L_j of the row's splitMeanCnt (8) groups, G = their mean;
//   x' = x - (G - L_j) * a / (1 - a) on group j's columns (the j-th srcK/8 columns);
//   mean = G, or (G + inMean * (n - 1)) / n with isUpdate; shiftCurr = (G - mean) * a / (1 - a);
//   max = rowmax(x') + shiftCurr, or with isUpdate max(that, inMax + shiftPrev) where
//   shiftPrev = (inMean - mean) * a / (1 - a); dst = e^(x' - max + shiftCurr);
//   sum = rowsum(dst), plus expMax * inSum with isUpdate, expMax = e^(inMax - max + shiftPrev).
// The local sums fold the row onto the vector unit's 64 float lanes as the NPU does (the first 512
// columns as 8-column blocks, the later ones lane by lane); group j is lanes 8j..8j+7. srcK is a
// multiple of 64, at least 512.
#include "adv_api/activation/softmax_common.h"

namespace canopy::adv {

template <bool isUpdate>
inline void softmax_flash_v3(const AscendC::LocalTensor<half>& dst, const AscendC::LocalTensor<float>& mean,
                             const AscendC::LocalTensor<float>& expSum, const AscendC::LocalTensor<float>& max,
                             const AscendC::LocalTensor<half>& src, const AscendC::LocalTensor<half>& expMax,
                             const AscendC::LocalTensor<float>& inMean, const AscendC::LocalTensor<float>& inExpSum,
                             const AscendC::LocalTensor<float>& inMax, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::tiling::SoftMaxTiling& tiling, const AscendC::SoftMaxParams& params) {
    const char* api = "SoftmaxFlashV3";
    const AscendC::SoftMaxShapeInfo info{params.srcM, params.srcK, params.oriSrcM, params.oriSrcK};
    const SoftmaxShape shape = softmax_shape<half>(api, tiling, info, true);
    constexpr uint32_t groups = 8;
    constexpr uint32_t lanes = 64;
    if (params.splitMeanCnt != groups || shape.k % lanes != 0 || shape.k < groups * lanes || shape.valid != shape.k)
        [[unlikely]] {
        fail_misuse(api, "splitMeanCnt ", params.splitMeanCnt, " and srcK ", shape.k,
                    ": SoftmaxFlashV3 splits a row into 8 means and needs srcK a multiple of 64, at least 512");
    }
    if (params.alpha <= 0.0f || params.alpha >= 1.0f || (isUpdate && params.loopCnt == 0)) [[unlikely]] {
        fail_misuse(api, "alpha ", params.alpha, " must lie in (0, 1) and loopCnt (", params.loopCnt,
                    ") be positive");
    }
    AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    const uint64_t reduced = uint64_t(shape.m) * reduced_per_row<float>;
    const half* s = call.in("srcTensor", src, elements, "the shape");
    const float* in_mean = isUpdate ? call.in("inMeanTensor", inMean, reduced, "the shape") : nullptr;
    const float* in_sum = isUpdate ? call.in("inExpSumTensor", inExpSum, reduced, "the shape") : nullptr;
    const float* in_max = isUpdate ? call.in("inMaxTensor", inMax, reduced, "the shape") : nullptr;
    half* d = call.out("dstTensor", dst, elements, "the shape");
    float* mean_out = call.out("meanTensor", mean, reduced, "the shape");
    float* sum_out = call.out("expSumTensor", expSum, reduced, "the shape");
    float* max_out = call.out("maxTensor", max, reduced, "the shape");
    half* exp_max = isUpdate ? call.out("expMaxTensor", expMax,
                                            uint64_t(shape.m) * reduced_per_row<half>, "calCount")
                             : nullptr;
    const uint32_t min_tmp = sizes::flashv3_row_floats(shape.k, sizeof(float)) * 4;
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetSoftMaxFlashV3MaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetSoftMaxFlashV3MaxMinTmpSize");
    }
    call.issue();

    const float scalar = params.alpha / (1.0f - params.alpha);
    const uint32_t base_k = shape.k / groups;
    RowMatrix x = read_rows(s, shape);
    Eigen::ArrayXf global(shape.m);
    for (uint32_t r = 0; r < shape.m; ++r) {
        float lane[lanes] = {};
        for (uint32_t c = 0; c < shape.k; ++c) lane[c < groups * lanes ? c / 8 : (c - groups * lanes) % lanes] += x(r, c);
        float local[groups];
        float total = 0.0f;
        for (uint32_t j = 0; j < groups; ++j) {
            float sum = 0.0f;
            for (uint32_t l = 0; l < 8; ++l) sum += lane[j * 8 + l];
            local[j] = sum / float(base_k);
            total += local[j];
        }
        global(r) = total / float(groups);
        for (uint32_t j = 0; j < groups; ++j) {
            x.row(r).segment(j * base_k, base_k) -= (global(r) - local[j]) * scalar;
        }
    }
    const Eigen::ArrayXf row_max = x.rowwise().maxCoeff();
    if constexpr (isUpdate) {
        const float n = float(params.loopCnt);
        const Eigen::ArrayXf old_mean = read_reduced(in_mean, shape.m);
        const Eigen::ArrayXf new_mean = (global + old_mean * (n - 1.0f)) / n;
        const Eigen::ArrayXf shift_curr = (global - new_mean) * scalar;
        const Eigen::ArrayXf shift_prev = (old_mean - new_mean) * scalar;
        const Eigen::ArrayXf old_max = read_reduced(in_max, shape.m);
        const Eigen::ArrayXf new_max = (row_max + shift_curr).max(old_max + shift_prev);
        const RowMatrix e = (x.colwise() - (new_max - shift_curr)).exp();
        const Eigen::ArrayXf scale = (old_max - new_max + shift_prev).exp();
        write_rows(d, shape, e);
        write_reduced(mean_out, new_mean);
        write_reduced(max_out, new_max);
        write_reduced(sum_out, Eigen::ArrayXf(scale * read_reduced(in_sum, shape.m) + e.rowwise().sum()));
        write_reduced(exp_max, scale);
    } else {
        const RowMatrix e = (x.colwise() - row_max).exp();
        write_rows(d, shape, e);
        write_reduced(mean_out, global);
        write_reduced(max_out, row_max);
        write_reduced(sum_out, Eigen::ArrayXf(e.rowwise().sum()));
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxParams& params) {
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>, "SoftmaxFlashV3 takes half and float");
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV3 computes ND tiles");
    canopy::adv::softmax_flash_v3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                            inMeanTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, params);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxParams& params) {
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>, "SoftmaxFlashV3 takes half and float");
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxFlashV3 computes ND tiles");
    canopy::adv::softmax_flash_v3<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                            inMeanTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                                            params);
}

}  // namespace AscendC
