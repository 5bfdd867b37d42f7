#pragma once
// LayerNormGrad (CANN adv_api/normalization/layernormgrad.h): the gradient of LayerNorm with
// respect to x over [B, S, H] rows (reduced over the original H), from dy, x, the forward
// variance and mean and gamma:
//   rstd = (var + eps)^-1/2, pd_xl = dy * gamma,
//   pd_var = sum(-0.5 * pd_xl * (x - mean)) * (var + eps)^-3/2,
//   pd_mean = sum(-pd_xl * rstd) + pd_var / H * sum(-2 (x - mean)),
//   pd_x = pd_mean / H + pd_var * 2 / H * (x - mean) + pd_xl * rstd,
//   resForGamma = (x - mean) * rstd (for LayerNormGradBeta).
#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"
#include "canopy/kernel/ascendc/shape_info.h"

namespace AscendC {

struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

namespace canopy::adv {

template <typename T, bool isReuseSource>
inline void layernorm_grad(const AscendC::LocalTensor<T>& outputPdX, const AscendC::LocalTensor<T>& resForGamma,
                           const AscendC::LocalTensor<T>& inputDy, const AscendC::LocalTensor<T>& inputX,
                           const AscendC::LocalTensor<T>& inputVariance, const AscendC::LocalTensor<T>& inputMean,
                           const AscendC::LocalTensor<T>& inputGamma, const AscendC::LocalTensor<uint8_t>* tmp,
                           T epsilon, const AscendC::tiling::LayerNormGradTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "LayerNormGrad supports half and float");
    AdvancedCall call("LayerNormGrad");
    const uint32_t rows = tiling.bLength * tiling.sLength;
    const uint32_t h = tiling.hLength;
    const uint32_t n = tiling.originalHLength;
    call.require(rows > 0 && h > 0, "the tiling's shape [", tiling.bLength, ", ", tiling.sLength, ", ", h,
                 "] is empty (was GetLayerNormGradNDTilingInfo called?)");
    call.require(n > 0 && n <= h, "originalHLength ", n, " must be in [1, hLength ", h, "]");
    const uint64_t total = uint64_t(rows) * h;
    const T* dy = call.in("inputDy", inputDy, total);
    const T* x = isReuseSource ? call.inout("inputX", inputX, total) : call.in("inputX", inputX, total);
    const T* var = call.in("inputVariance", inputVariance, rows);
    const T* mean = call.in("inputMean", inputMean, rows);
    const T* gamma = call.in("inputGamma", inputGamma, h);
    T* pd_x = call.out("outputPdX", outputPdX, total);
    T* res = call.out("resForGamma", resForGamma, total);
    if (tmp) {
        call.tmp("sharedTmpBuffer", *tmp,
                 sizes::layernorm_grad_min(tiling.bLength, tiling.sLength, h, sizeof(T), isReuseSource));
    }
    call.issue();
    const double eps = static_cast<float>(epsilon);
    const double rec = 1.0 / n;
    std::vector<double> xmm(h);
    std::vector<double> pd_xl(h);
    for (uint32_t r = 0; r < rows; ++r) {
        const double m = static_cast<float>(mean[r]);
        const double v = static_cast<float>(var[r]) + eps;
        const double rstd = 1.0 / std::sqrt(v);
        const double rstd3 = rstd / v;
        double sum_var = 0.0;
        double sum_mean = 0.0;
        double sum_xmm = 0.0;
        for (uint32_t i = 0; i < h; ++i) {
            const uint64_t at = uint64_t(r) * h + i;
            xmm[i] = double(float(x[at])) - m;
            pd_xl[i] = double(float(dy[at])) * double(float(gamma[i]));
            if (i < n) {
                sum_var += -0.5 * pd_xl[i] * xmm[i];
                sum_mean += -pd_xl[i] * rstd;
                sum_xmm += -2.0 * xmm[i];
            }
        }
        const double pd_var = sum_var * rstd3;
        const double pd_mean = sum_mean + pd_var * rec * sum_xmm;
        for (uint32_t i = 0; i < h; ++i) {
            const uint64_t at = uint64_t(r) * h + i;
            pd_x[at] = static_cast<T>(pd_mean * rec + pd_var * 2.0 * rec * xmm[i] + pd_xl[i] * rstd);
            res[at] = static_cast<T>(xmm[i] * rstd);
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
                                     T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    canopy::adv::layernorm_grad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                  inputGamma, &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    canopy::adv::layernorm_grad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                  inputGamma, nullptr, epsilon, tiling);
}

}  // namespace AscendC
