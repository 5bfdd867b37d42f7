#pragma once
// SoftMax and AdjustSoftMaxRes (CANN's adv_api/activation/softmax.h). Row by row over a [srcM, srcK]
// tile: max = rowmax(x), sum = rowsum(e^(x - max)), dst = e^(x - max) / sum; max and sum (when
// asked for) are written one 32-byte block per row (one element with SOFTMAX_OUTPUT_WITHOUT_BRC).
// half sources are computed in float; the half-to-float form writes float statistics.
#include "adv_api/activation/softmax_common.h"

namespace canopy::adv {

// dst = softmax(src); sum and max optional (null).
template <typename T, typename U, bool isBasicBlock, const AscendC::SoftmaxConfig& config>
inline void softmax(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                    const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::tiling::SoftMaxTiling& tiling,
                    const AscendC::SoftMaxShapeInfo& info) {
    static_assert(is_half_or_float<T> && is_half_or_float<U>, "SoftMax supports half and float");
    const SoftmaxShape shape = softmax_shape<T>(api, tiling, info, config.isCheckTiling);
    if constexpr (isBasicBlock) require_basic_block(api, shape);
    AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    const T* s = call.in("srcTensor", src, elements, "the shape");
    T* d = call.out("dstTensor", dst, elements, "the shape");
    constexpr uint32_t per = reduced_stride<U>(config);
    U* sum_data = sum != nullptr ? call.out("sumTensor", *sum, uint64_t(shape.m) * per, "the shape")
                                 : nullptr;
    U* max_data = max != nullptr ? call.out("maxTensor", *max, uint64_t(shape.m) * per, "the shape")
                                 : nullptr;
    const uint32_t min_tmp = sizes::softmax_row_floats(shape.k, sizeof(T)) * 4;
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetSoftMaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetSoftMaxMinTmpSize");
    }
    call.issue();
    const Exponentials ex = exponentials(read_rows(s, shape));
    write_rows(d, shape, RowMatrix(ex.e.colwise() / ex.sum));
    if (sum_data != nullptr) write_reduced(sum_data, ex.sum, per);
    if (max_data != nullptr) write_reduced(max_data, ex.max, per);
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftMax computes ND tiles");
    canopy::adv::softmax<T, T, isBasicBlock, config>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr,
                                                     tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftMax computes ND tiles");
    canopy::adv::softmax<half, float, isBasicBlock, config>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                                                            nullptr, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    canopy::adv::softmax<T, T, isBasicBlock, config>("SoftMax", dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                                                     static_cast<const LocalTensor<T>*>(nullptr), srcTensor, nullptr,
                                                     tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    canopy::adv::softmax<T, T, isBasicBlock, config>("SoftMax", dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                                                     static_cast<const LocalTensor<T>*>(nullptr), srcTensor,
                                                     &sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftMax computes ND tiles");
    canopy::adv::softmax<T, T, isBasicBlock, config>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                                                     &sharedTmpBuffer, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftMax computes ND tiles");
    canopy::adv::softmax<half, float, isBasicBlock, config>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                                                            &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

// Rows whose max (the first element of its 32-byte block) has the bit pattern `from` get every
// element of softMaxRes set to `to`; true when some row did.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
__aicore__ inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                                        const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
    static_assert(!isDataFormatNZ, "Canopy's AdjustSoftMaxRes works on ND tiles");
    namespace adv = canopy::adv;
    const uint32_t m = softmaxShapeInfo.srcM;
    const uint32_t k = softmaxShapeInfo.srcK;
    const uint32_t per = stepSizeMode == 0 ? adv::reduced_per_row<T2> : 1;
    adv::AdvancedCall call("AdjustSoftMaxRes");
    T1* res = call.inout("softMaxRes", softMaxRes, uint64_t(m) * k, "the shape");
    const T2* max = call.in("maxTensor", maxTensor, uint64_t(m) * per, "the shape");
    call.issue();
    bool adjusted = false;
    for (uint32_t r = 0; r < m; ++r) {
        uint32_t bits = 0;
        std::memcpy(&bits, max + uint64_t(r) * per, sizeof(T2));
        if (bits == from) {
            adjusted = true;
            std::fill(res + uint64_t(r) * k, res + uint64_t(r + 1) * k, to);
        }
    }
    return adjusted;
}

}  // namespace AscendC
