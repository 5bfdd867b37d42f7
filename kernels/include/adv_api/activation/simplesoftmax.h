#pragma once
// SimpleSoftMax (CANN's adv_api/activation/simplesoftmax.h): softmax from given statistics,
// dst = e^(src - max) / sum, max and sum one 32-byte block per row, no reduction.
#include "adv_api/activation/softmax_common.h"

namespace canopy::adv {
template <typename T, typename U, const AscendC::SoftmaxConfig& config>
inline void simple_softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
                           const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
                           const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::tiling::SoftMaxTiling& tiling,
                           const AscendC::SoftMaxShapeInfo& info) {
    static_assert(is_half_or_float<T> && is_half_or_float<U>, "SimpleSoftMax supports half and float");
    const char* api = "SimpleSoftMax";
    const SoftmaxShape shape = softmax_shape<T>(api, tiling, info, config.isCheckTiling);
    AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    const T* s = call.in("srcTensor", src, elements, "the shape");
    const U* sum_data = call.in("inSumTensor", sum, uint64_t(shape.m) * reduced_per_row<U>, "the shape");
    const U* max_data = call.in("inMaxTensor", max, uint64_t(shape.m) * reduced_per_row<U>, "the shape");
    T* d = call.out("dstTensor", dst, elements, "the shape");
    const uint32_t min_tmp = sizes::softmax_row_floats(shape.k, sizeof(T)) * 4;
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetSoftMaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetSoftMaxMinTmpSize");
    }
    call.issue();
    const RowMatrix x = read_rows(s, shape);
    const Eigen::ArrayXf m = read_reduced(max_data, shape.m);
    const Eigen::ArrayXf total = read_reduced(sum_data, shape.m);
    write_rows(d, shape, RowMatrix((x.colwise() - m).exp().colwise() / total));
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    canopy::adv::simple_softmax<T, T, config>(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling,
                                              softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    canopy::adv::simple_softmax<T, T, config>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                              softmaxShapeInfo);
}

}  // namespace AscendC
