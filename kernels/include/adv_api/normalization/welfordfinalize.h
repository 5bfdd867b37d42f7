#pragma once
// WelfordFinalize (CANN adv_api/normalization/welfordfinalize.h): combines abLength partial
// Welford statistics (means and sums of squared deviations) into one mean and variance, written
// to element 0 of the outputs. With counts: mean = sum(mean_i * count_i) * rRec,
// variance = sum((mean_i - mean)^2 * count_i + var_i) * rRec. Without: the first headCountLength
// partials count headCount each and the rest tailCount (when tailCountLength is 0, every partial
// counts rnLength and the mean is sum(mean_i) * abRec).
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct WelfordFinalizeConfig {
    constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};

}  // namespace AscendC

namespace canopy::adv {

inline void welford_finalize(const AscendC::LocalTensor<float>& outputMean,
                             const AscendC::LocalTensor<float>& outputVariance,
                             const AscendC::LocalTensor<float>& inputMean,
                             const AscendC::LocalTensor<float>& inputVariance,
                             const AscendC::LocalTensor<int32_t>* counts, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::WelfordFinalizePara& para, bool correction) {
    AdvancedCall call("WelfordFinalize");
    const uint32_t ab = para.abLength;
    call.require(ab > 0 && ab % 8 == 0, "abLength ", ab, " must be a positive multiple of 8 (32 bytes of float)");
    if (counts == nullptr && para.tailCountLength != 0) {
        call.require(para.headCountLength + para.tailCountLength == ab, "headCountLength ", para.headCountLength,
                     " + tailCountLength ", para.tailCountLength, " must be abLength ", ab);
    }
    const float* mean = call.in("inputMean", inputMean, ab);
    const float* var = call.in("inputVariance", inputVariance, ab);
    const int32_t* count = counts ? call.in("counts", *counts, ab) : nullptr;
    float* out_mean = call.out("outputMean", outputMean, 1);
    float* out_var = call.out("outputVariance", outputVariance, 1);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::welford_finalize_min());
    call.issue();
    const float rRec = correction ? para.rRecWithCorrection : para.rRec;
    auto weight = [&](uint32_t i) -> double {
        if (count) return count[i];
        if (para.tailCountLength == 0) return para.rnLength;
        return i < para.headCountLength ? para.headCount : para.tailCount;
    };
    double m = 0.0;
    if (count == nullptr && para.tailCountLength == 0) {
        for (uint32_t i = 0; i < ab; ++i) m += double(mean[i]) * para.abRec;
    } else {
        for (uint32_t i = 0; i < ab; ++i) m += double(mean[i]) * weight(i) * para.rRec;
    }
    const float mf = static_cast<float>(m);
    double v = 0.0;
    for (uint32_t i = 0; i < ab; ++i) {
        const double d = double(mean[i]) - mf;
        v += (d * d * weight(i) + double(var[i])) * rRec;
    }
    out_mean[0] = mf;
    out_var[0] = static_cast<float>(v);
}

}  // namespace canopy::adv

namespace AscendC {

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
    canopy::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para,
                                  config.isCorrection);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
    canopy::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para,
                                  config.isCorrection);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para) {
    canopy::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para,
                                  config.isCorrection);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
    canopy::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para,
                                  config.isCorrection);
}

}  // namespace AscendC
