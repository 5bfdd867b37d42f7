#pragma once
// RmsNorm (CANN adv_api/normalization/rmsnorm.h): over [B, S, H] rows,
// dst = src / sqrt(mean(src^2 over the original H) + epsilon) * gamma, in float.
#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/norm_rows.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv {

template <typename T, bool isBasicBlock>
inline void rmsnorm(const AscendC::LocalTensor<T>& dstLocal, const AscendC::LocalTensor<T>& srcLocal,
                    const AscendC::LocalTensor<T>& gammaLocal, const AscendC::LocalTensor<uint8_t>* tmp,
                    const T epsilon, const AscendC::tiling::RmsNormTiling& tiling) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "RmsNorm supports half and float");
    AdvancedCall call("RmsNorm");
    const uint32_t rows = tiling.bLength * tiling.sLength;
    const uint32_t h = tiling.hLength;
    const uint32_t n = tiling.originalHLength;
    call.require(rows > 0 && h > 0, "the tiling's shape [", tiling.bLength, ", ", tiling.sLength, ", ", h,
                 "] is empty (was GetRmsNormTilingInfo called?)");
    call.require(h * sizeof(T) % 32 == 0, "hLength ", h, " must be 32-byte aligned");
    call.require(n > 0 && n <= h, "originalHLength ", n, " must be in [1, hLength ", h, "]");
    if constexpr (isBasicBlock) {
        call.require(h % 64 == 0 && rows % 8 == 0, "a basic block needs H a multiple of 64 (", h,
                     ") and B*S a multiple of 8 (", rows, ")");
    }
    const T* src = call.in("srcLocal", srcLocal, uint64_t(rows) * h);
    const T* gamma = call.in("gammaLocal", gammaLocal, h);
    T* dst = call.out("dstLocal", dstLocal, uint64_t(rows) * h);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::rmsnorm_min(h, sizeof(T)));
    call.issue();
    const RowsD x = load_rows(src, rows, h, h);
    const ColD mean_square =
        (x.leftCols(n).square().rowwise().sum() * double(tiling.reciprocalOfHLength)).cast<float>().cast<double>();
    const ColD inverse_rms = (mean_square + double(static_cast<float>(epsilon))).sqrt().inverse();
    store_rows(dst, RowsD((x.colwise() * inverse_rms).rowwise() * load_line(gamma, h)), h);
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling) {
    canopy::adv::rmsnorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
    canopy::adv::rmsnorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling);
}

}  // namespace AscendC
