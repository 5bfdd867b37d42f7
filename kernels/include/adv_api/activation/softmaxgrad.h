#pragma once
// SoftmaxGrad and SoftmaxGradFront (CANN's adv_api/activation/softmaxgrad.h), with src the softmax
// output y and grad dy: front = rowsum(dy * y) (one 32-byte block per row); SoftmaxGrad writes
// dst = (dy - front) * y, or with isFront the front itself. half computed in float.
#include "adv_api/activation/softmax_common.h"

namespace canopy::adv {

template <typename T, bool front_only, const AscendC::SoftmaxConfig& config>
inline void softmax_grad(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                         const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                         const AscendC::tiling::SoftMaxTiling& tiling, bool isFront,
                         const AscendC::SoftMaxShapeInfo& info) {
    static_assert(is_half_or_float<T>, "SoftmaxGrad supports half and float");
    const SoftmaxShape shape = softmax_shape<T>(api, tiling, info, config.isCheckTiling);
    const bool front = front_only || isFront;
    AdvancedCall call(api);
    const uint64_t elements = uint64_t(shape.m) * shape.k;
    const T* y = call.in("srcTensor", src, elements, "the shape");
    const T* dy = call.in("gradTensor", grad, elements, "the shape");
    T* d = call.out("dstTensor", dst, front ? uint64_t(shape.m) * reduced_per_row<T> : elements, "the shape");
    const uint32_t min_tmp = sizes::softmax_grad_row_floats(shape.k, sizeof(T), front) * 4;
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetSoftMaxGradMinTmpSize");
    } else {
        call.stack(min_tmp, "GetSoftMaxGradMinTmpSize");
    }
    call.issue();
    const RowMatrix ys = read_rows(y, shape);
    const RowMatrix dys = read_rows(dy, shape);
    const Eigen::ArrayXf dot = (ys * dys).rowwise().sum();
    if (front) {
        write_reduced(d, dot);
    } else {
        write_rows(d, shape, RowMatrix((dys.colwise() - dot) * ys));
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxGrad computes ND tiles");
    canopy::adv::softmax_grad<T, false, config>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, nullptr, tiling,
                                                isFront, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxGrad computes ND tiles");
    canopy::adv::softmax_grad<T, false, config>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                                tiling, isFront, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxGradFront computes ND tiles");
    canopy::adv::softmax_grad<T, true, config>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, nullptr, tiling,
                                               true, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "Canopy's SoftmaxGradFront computes ND tiles");
    canopy::adv::softmax_grad<T, true, config>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                               tiling, true, softmaxShapeInfo);
}

}  // namespace AscendC
