#pragma once
// LayerNorm and WelfordUpdate (CANN adv_api/normalization/layernorm.h).
// LayerNorm of [B, S, H] (LayerNormTiling): each row normalized over the original H,
//   output = gamma * (x - mean) / sqrt(variance + epsilon) + beta, with each row's mean and
//   variance as outputs.
// LayerNorm of [A, R] (LayerNormPara, LayerNormSeparateTiling): rows of rLength elements,
//   rLengthWithPadding apart; float mean and rstd = 1 / sqrt(variance + epsilon) outputs (the
//   variance when config.isOutputRstd is false; none when config.isOnlyOutput); gamma / beta left
//   out with config.isNoGamma / isNoBeta.
// WelfordUpdate: one Welford step over rnLength rows of abLength elements, the first
//   abComputeLength of each: delta = x - mean, mean' = mean + delta * nRec,
//   var' = var + delta * (x - mean'); with config.isInplace the remaining elements of the outputs
//   take the inputs' values.
#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/norm_rows.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};

}  // namespace AscendC

namespace canopy::adv {

template <typename T, bool isReuseSource>
inline void layernorm_bsh(const AscendC::LocalTensor<T>& output, const AscendC::LocalTensor<T>& outputMean,
                          const AscendC::LocalTensor<T>& outputVariance, const AscendC::LocalTensor<T>& inputX,
                          const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta,
                          const AscendC::LocalTensor<uint8_t>* tmp, const T epsilon,
                          const AscendC::tiling::LayerNormTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "LayerNorm supports half and float");
    AdvancedCall call("LayerNorm");
    const uint32_t rows = tiling.bLength * tiling.sLength;
    const uint32_t h = tiling.hLength;
    const uint32_t n = tiling.originalHLength;
    call.require(rows > 0 && h > 0, "the tiling's shape [", tiling.bLength, ", ", tiling.sLength, ", ", h,
                 "] is empty (was GetLayerNormNDTilingInfo called with enough buffer?)");
    call.require(n > 0 && n <= h, "originalHLength ", n, " must be in [1, hLength ", h, "]");
    const T* x = isReuseSource ? call.inout("inputX", inputX, uint64_t(rows) * h)
                               : call.in("inputX", inputX, uint64_t(rows) * h);
    const T* g = call.in("gamma", gamma, h);
    const T* b = call.in("beta", beta, h);
    T* y = call.out("output", output, uint64_t(rows) * h);
    T* mean_out = call.out("outputMean", outputMean, rows);
    T* var_out = call.out("outputVariance", outputVariance, rows);
    if (tmp) {
        call.tmp("sharedTmpBuffer", *tmp, sizes::bsh_norm_min(tiling.bLength, tiling.sLength, h, sizeof(T),
                                                              isReuseSource));
    }
    call.issue();
    const RowsD xs = load_rows(x, rows, h, h);
    ColD mean, variance;
    row_mean_variance(xs, n, mean, variance);
    const ColD rstd = (variance + double(static_cast<float>(epsilon))).sqrt().inverse();
    const RowsD normalized = (xs.colwise() - mean).colwise() * rstd;
    store_rows(y, RowsD((normalized.rowwise() * load_line(g, h)).rowwise() + load_line(b, h)), h);
    store_column(mean_out, mean);
    store_column(var_out, variance);
}

template <typename U, typename T, bool isReuseSource, const AscendC::LayerNormConfig& config>
inline void layernorm_ar(const AscendC::LocalTensor<T>& output, const AscendC::LocalTensor<float>& outputMean,
                         const AscendC::LocalTensor<float>& outputRstd, const AscendC::LocalTensor<T>& inputX,
                         const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta, const float epsilon,
                         const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::LayerNormPara& para,
                         const AscendC::tiling::LayerNormSeparateTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "LayerNorm supports half and float");
    AdvancedCall call("LayerNorm");
    const uint32_t a = para.aLength;
    const uint32_t r = para.rLength;
    const uint32_t stride = para.rLengthWithPadding;
    call.require(a > 0 && r > 0 && r <= stride, "para {aLength ", a, ", rLength ", r, ", rLengthWithPadding ", stride,
                 "} is inconsistent");
    call.require(stride * sizeof(T) % 32 == 0, "rLengthWithPadding ", stride, " must make 32-byte rows");
    call.require(tiling.aLength == a && tiling.rLength == r, "the tiling was computed for [", tiling.aLength, ", ",
                 tiling.rLength, "] but para is [", a, ", ", r, "]");
    const T* x = isReuseSource ? call.inout("inputX", inputX, uint64_t(a) * stride)
                               : call.in("inputX", inputX, uint64_t(a) * stride);
    const U* g = config.isNoGamma ? nullptr : call.in("gamma", gamma, r);
    const U* b = config.isNoBeta ? nullptr : call.in("beta", beta, r);
    T* y = call.out("output", output, uint64_t(a) * stride);
    float* mean_out = config.isOnlyOutput ? nullptr : call.out("outputMean", outputMean, a);
    float* rstd_out = config.isOnlyOutput ? nullptr : call.out("outputRstd", outputRstd, a);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::layernorm_separate_min(a, r, sizeof(T)));
    call.issue();
    const RowsD xs = load_rows(x, a, r, stride);
    ColD mean, variance;
    row_mean_variance(xs, r, mean, variance);
    const ColD rstd = (variance + double(epsilon)).sqrt().inverse().cast<float>().cast<double>();
    RowsD out = (xs.colwise() - mean).colwise() * rstd;
    if (g) out.rowwise() *= load_line(g, r);
    if (b) out.rowwise() += load_line(b, r);
    store_rows(y, out, stride);
    if (mean_out) store_column(mean_out, mean);
    if (rstd_out) store_column(rstd_out, config.isOutputRstd ? rstd : variance);
}

template <typename T, typename U, bool isReuseSource, const AscendC::WelfordUpdateConfig& config>
inline void welford_update(const AscendC::LocalTensor<U>& outputMean, const AscendC::LocalTensor<U>& outputVariance,
                           const AscendC::LocalTensor<U>& inputMean, const AscendC::LocalTensor<U>& inputVariance,
                           const AscendC::LocalTensor<T>& inputX, const AscendC::LocalTensor<uint8_t>* tmp,
                           const AscendC::WelfordUpdateParam& para) {
    static_assert(std::is_same_v<U, float>, "WelfordUpdate keeps float statistics");
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "WelfordUpdate takes half or float input");
    AdvancedCall call("WelfordUpdate");
    call.require(para.abComputeLength <= para.abLength, "abComputeLength ", para.abComputeLength,
                 " exceeds abLength ", para.abLength);
    call.require(para.abLength * sizeof(T) % 32 == 0, "abLength ", para.abLength, " must make 32-byte rows");
    const uint64_t total = uint64_t(para.rnLength) * para.abLength;
    const T* x = isReuseSource ? call.inout("inputX", inputX, total) : call.in("inputX", inputX, total);
    const U* in_mean = call.in("inputMean", inputMean, total);
    const U* in_var = call.in("inputVariance", inputVariance, total);
    U* out_mean = call.out("outputMean", outputMean, total);
    U* out_var = call.out("outputVariance", outputVariance, total);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::welford_update_min(sizeof(T), isReuseSource));
    call.issue();
    for (uint32_t row = 0; row < para.rnLength; ++row) {
        for (uint32_t i = 0; i < para.abLength; ++i) {
            const uint64_t at = uint64_t(row) * para.abLength + i;
            if (i < para.abComputeLength) {
                const float value = static_cast<float>(x[at]);
                const float m = in_mean[at];
                const float v = in_var[at];
                const float delta = value - m;
                const float mean = m + delta * para.nRec;
                out_mean[at] = mean;
                out_var[at] = v + delta * (value - mean);
            } else if (config.isInplace) {
                out_mean[at] = in_mean[at];
                out_var[at] = in_var[at];
            }
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 LayerNormTiling& tiling) {
    canopy::adv::layernorm_bsh<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                                                 &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling) {
    canopy::adv::layernorm_bsh<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr,
                                                 epsilon, tiling);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
    canopy::adv::layernorm_ar<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon,
                                                           nullptr, para, tiling);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling) {
    canopy::adv::layernorm_ar<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon,
                                                           &sharedTmpBuffer, para, tiling);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
    canopy::adv::welford_update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                             inputX, nullptr, para);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para) {
    canopy::adv::welford_update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                             inputX, &sharedTmpBuffer, para);
}

}  // namespace AscendC
