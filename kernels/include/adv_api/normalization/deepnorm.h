#pragma once
// DeepNorm (CANN adv_api/normalization/deepnorm.h): z = alpha * src + gx, then the layer norm of
// each [B, S] row of z over the original H: dst = gamma * (z - mean) / sqrt(variance + epsilon) +
// beta; meanLocal and the third output (named rstdLocal in CANN) receive each row's mean and
// variance.
#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/norm_rows.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv {

template <typename T, bool isReuseSrc, bool isBasicBlock>
inline void deepnorm(const AscendC::LocalTensor<T>& dstLocal, const AscendC::LocalTensor<T>& meanLocal,
                     const AscendC::LocalTensor<T>& rstdLocal, const AscendC::LocalTensor<T>& srcLocal,
                     const AscendC::LocalTensor<T>& gxLocal, const AscendC::LocalTensor<T>& betaLocal,
                     const AscendC::LocalTensor<T>& gammaLocal, const AscendC::LocalTensor<uint8_t>* tmp,
                     const T alpha, const T epsilon, const AscendC::tiling::DeepNormTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "DeepNorm supports half and float");
    AdvancedCall call("DeepNorm");
    const uint32_t rows = tiling.bLength * tiling.sLength;
    const uint32_t h = tiling.hLength;
    const uint32_t n = tiling.originalHLength;
    call.require(rows > 0 && h > 0, "the tiling's shape [", tiling.bLength, ", ", tiling.sLength, ", ", h,
                 "] is empty (was GetDeepNormTilingInfo called?)");
    call.require(h * sizeof(T) % 32 == 0 && h <= 2040, "hLength ", h, " must be 32-byte aligned and at most 2040");
    call.require(n > 0 && n <= h, "originalHLength ", n, " must be in [1, hLength ", h, "]");
    if constexpr (isBasicBlock) {
        call.require(h % 64 == 0 && rows % 8 == 0 && n == h, "a basic block needs H a multiple of 64 (", h,
                     "), B*S a multiple of 8 (", rows, ") and no padding of H (original ", n, ")");
    }
    const T* src = isReuseSrc ? call.inout("srcLocal", srcLocal, uint64_t(rows) * h)
                              : call.in("srcLocal", srcLocal, uint64_t(rows) * h);
    const T* gx = call.in("gxLocal", gxLocal, uint64_t(rows) * h);
    const T* beta = call.in("betaLocal", betaLocal, h);
    const T* gamma = call.in("gammaLocal", gammaLocal, h);
    T* dst = call.out("dstLocal", dstLocal, uint64_t(rows) * h);
    T* mean_out = call.out("meanLocal", meanLocal, rows);
    T* var_out = call.out("rstdLocal", rstdLocal, rows);
    if (tmp) {
        call.tmp("sharedTmpBuffer", *tmp,
                 sizes::bsh_norm_min(tiling.bLength, tiling.sLength, h, sizeof(T), isReuseSrc));
    }
    call.issue();
    // z = alpha * x + gx, each product and sum rounded to float as the vector unit computes them.
    const RowsD x = load_rows(src, rows, h, h);
    const RowsD g = load_rows(gx, rows, h, h);
    const RowsD z = (x.cast<float>() * static_cast<float>(alpha) + g.cast<float>()).cast<double>();
    ColD mean, variance;
    row_mean_variance(z, n, mean, variance);
    const ColD rstd = (variance + double(static_cast<float>(epsilon))).sqrt().inverse();
    const RowsD normalized = (z.colwise() - mean).colwise() * rstd;
    store_rows(dst, RowsD((normalized.rowwise() * load_line(gamma, h)).rowwise() + load_line(beta, h)), h);
    store_column(mean_out, mean);
    store_column(var_out, variance);
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, DeepNormTiling& tiling) {
    canopy::adv::deepnorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                       gammaLocal, &sharedTmpBuffer, alpha, epsilon, tiling);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling) {
    canopy::adv::deepnorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                       gammaLocal, nullptr, alpha, epsilon, tiling);
}

}  // namespace AscendC
