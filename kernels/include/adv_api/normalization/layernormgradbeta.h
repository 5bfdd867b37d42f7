#pragma once
// LayerNormGradBeta (CANN adv_api/normalization/layernormgradbeta.h): the gradients of gamma and
// beta over [B, S, H]: pdGamma[h] = sum over B*S of dy * resForGamma, pdBeta[h] = sum of dy.
#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/norm_rows.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv {

template <typename T, bool isReuseSource>
inline void layernorm_grad_beta(const AscendC::LocalTensor<T>& outputPdGamma,
                                const AscendC::LocalTensor<T>& outputPdBeta, const AscendC::LocalTensor<T>& resForGamma,
                                const AscendC::LocalTensor<T>& inputDy, const AscendC::LocalTensor<uint8_t>* tmp,
                                const AscendC::tiling::LayerNormGradBetaTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "LayerNormGradBeta supports half and float");
    AdvancedCall call("LayerNormGradBeta");
    const uint32_t rows = tiling.bLength * tiling.sLength;
    const uint32_t h = tiling.hLength;
    call.require(rows > 0 && h > 0, "the tiling's shape [", tiling.bLength, ", ", tiling.sLength, ", ", h,
                 "] is empty (was GetLayerNormGradBetaNDTilingInfo called?)");
    const uint64_t total = uint64_t(rows) * h;
    const T* res = call.in("resForGamma", resForGamma, total);
    const T* dy = call.in("inputDy", inputDy, total);
    T* pd_gamma = call.out("outputPdGamma", outputPdGamma, h);
    T* pd_beta = call.out("outputPdBeta", outputPdBeta, h);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::layernorm_grad_beta_min(h, sizeof(T)));
    call.issue();
    const RowsD d = load_rows(dy, rows, h, h);
    const RowsD rg = load_rows(res, rows, h, h);
    const LineD pd_g = (d * rg).colwise().sum();
    const LineD pd_b = d.colwise().sum();
    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>(pd_gamma, h) = pd_g.cast<float>().cast<T>();
    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>(pd_beta, h) = pd_b.cast<float>().cast<T>();
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const LayerNormGradBetaTiling& tiling) {
    canopy::adv::layernorm_grad_beta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                                       &sharedTmpBuffer, tiling);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         LayerNormGradBetaTiling& tiling) {
    canopy::adv::layernorm_grad_beta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr,
                                                       tiling);
}

}  // namespace AscendC
