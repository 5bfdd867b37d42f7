#pragma once
// Normalize (CANN adv_api/normalization/normalize.h): with each row's mean and variance given,
// rstd = 1 / sqrt(variance + epsilon) and output = gamma * (x - mean) * rstd + beta over aLength
// rows of rLength elements (rLengthWithPadding apart); outputRstd receives rstd unless
// config.isOnlyOutput; gamma / beta left out with config.isNoGamma / isNoBeta.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/norm_rows.h"
#include "canopy/adv/reduce_pattern.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};

struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace canopy::adv {

template <typename U, typename T, bool isReuseSource, const AscendC::NormalizeConfig& config>
inline void normalize(const AscendC::LocalTensor<T>& output, const AscendC::LocalTensor<float>& outputRstd,
                      const AscendC::LocalTensor<float>& inputMean, const AscendC::LocalTensor<float>& inputVariance,
                      const AscendC::LocalTensor<T>& inputX, const AscendC::LocalTensor<U>& gamma,
                      const AscendC::LocalTensor<U>& beta, const AscendC::LocalTensor<uint8_t>* tmp,
                      const float epsilon, const AscendC::NormalizePara& para) {
    static_assert(config.reducePattern == AscendC::ReducePattern::AR, "Normalize reduces the AR pattern");
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "Normalize supports half and float");
    AdvancedCall call("Normalize");
    const uint32_t a = para.aLength;
    const uint32_t r = para.rLength;
    const uint32_t stride = para.rLengthWithPadding;
    call.require(a > 0 && r > 0 && r <= stride, "para {aLength ", a, ", rLength ", r, ", rLengthWithPadding ", stride,
                 "} is inconsistent");
    call.require(stride * sizeof(T) % 32 == 0, "rLengthWithPadding ", stride, " must make 32-byte rows");
    if constexpr (config.aLength != -1) {
        call.require(uint32_t(config.aLength) == a, "config.aLength ", config.aLength, " differs from para.aLength ",
                     a);
    }
    const T* x = isReuseSource ? call.inout("inputX", inputX, uint64_t(a) * stride)
                               : call.in("inputX", inputX, uint64_t(a) * stride);
    const float* mean = call.in("inputMean", inputMean, a);
    const float* var = call.in("inputVariance", inputVariance, a);
    const U* g = config.isNoGamma ? nullptr : call.in("gamma", gamma, r);
    const U* b = config.isNoBeta ? nullptr : call.in("beta", beta, r);
    T* y = call.out("output", output, uint64_t(a) * stride);
    float* rstd_out = config.isOnlyOutput ? nullptr : call.out("outputRstd", outputRstd, a);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::normalize_min(a, r, sizeof(U), sizeof(T)));
    call.issue();
    const RowsD xs = load_rows(x, a, r, stride);
    const ColD rstd = (Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>>(var, a).cast<double>() + double(epsilon))
                          .sqrt()
                          .inverse()
                          .cast<float>()
                          .cast<double>();
    RowsD out = (xs.colwise() - Eigen::Map<const Eigen::Array<float, Eigen::Dynamic, 1>>(mean, a).cast<double>())
                    .colwise() * rstd;
    if (g) out.rowwise() *= load_line(g, r);
    if (b) out.rowwise() += load_line(b, r);
    store_rows(y, out, stride);
    if (rstd_out) store_column(rstd_out, rstd);
}

}  // namespace canopy::adv

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para) {
    canopy::adv::normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                        beta, &sharedTmpBuffer, epsilon, para);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para) {
    canopy::adv::normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                        beta, nullptr, epsilon, para);
}

}  // namespace AscendC
