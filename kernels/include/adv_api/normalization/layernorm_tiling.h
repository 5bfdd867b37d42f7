#pragma once
// Host tiling of LayerNorm and WelfordUpdate (CANN adv_api/normalization/layernorm_tiling.h),
// LayerNormGrad, LayerNormGradBeta, Normalize and WelfordFinalize (their *_tiling.h).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "canopy/adv/bsh_norm_tiling.h"
#include "canopy/adv/reduce_pattern.h"

CANOPY_DECLARE_HOST_TILING(LayerNormTiling, CANOPY_LAYERNORM_BSH_TILING_FIELDS)
CANOPY_DECLARE_HOST_TILING(LayerNormSeparateTiling, CANOPY_LAYERNORM_SEPARATE_TILING_FIELDS)
CANOPY_DECLARE_HOST_TILING(LayerNormGradTiling, CANOPY_LAYERNORM_GRAD_TILING_FIELDS)
CANOPY_DECLARE_HOST_TILING(LayerNormGradBetaTiling, CANOPY_LAYERNORM_GRAD_BETA_TILING_FIELDS)

namespace canopy::adv::sizes {
// [B, S, H, originH] as the LayerNorm tiling functions take it.
inline bool layernorm_bsh(const AscendC::TensorShape& shape, uint32_t& b, uint32_t& s, uint32_t& h, uint32_t& oriH) {
    if (shape.GetDimNum() < 4) return false;
    b = uint32_t(shape.GetDim(0));
    s = uint32_t(shape.GetDim(1));
    h = uint32_t(shape.GetDim(2));
    oriH = uint32_t(shape.GetDim(3));
    return b * s * h > 0;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

// LayerNorm of [B, S, H, originH].
inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH)) return;
    maxValue = canopy::adv::sizes::bsh_norm_max(b, s, h, typeSize, isReuseSource);
    minValue = canopy::adv::sizes::bsh_norm_min(b, s, h, typeSize, isReuseSource);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     AscendC::tiling::LayerNormTiling& tiling) {
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH)) return;
    canopy::adv::bsh_norm_tiling(TensorShape({b, s, h}), TensorShape({b, s, oriH}), stackBufferSize, typeSize,
                                 isReuseSource, false, tiling);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
    AscendC::tiling::LayerNormTiling plain{};
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
    canopy::adv::copy_tiling(plain, tiling);
}
[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]]
inline void GetLayerNormNDTillingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

// Normalize of [A, R].
inline void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    if (srcShape.GetDimNum() != 2 || typeSizeT == 0) return;
    const uint32_t a = uint32_t(srcShape.GetDim(0));
    const uint32_t r = uint32_t(srcShape.GetDim(1));
    maxValue = canopy::adv::sizes::normalize_max(a, r, typeSizeT);
    minValue = canopy::adv::sizes::normalize_min(a, r, typeSizeU, typeSizeT);
}

// LayerNorm of [A, R] (the separate form).
inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isReuseSource;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4)) return;
    const uint32_t a = uint32_t(srcShape.GetDim(0));
    const uint32_t r = uint32_t(srcShape.GetDim(1));
    maxValue = canopy::adv::sizes::layernorm_separate_max(a, r, typeSize);
    minValue = canopy::adv::sizes::layernorm_separate_min(a, r, typeSize);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4)) return;
    const uint32_t a = uint32_t(srcShape.GetDim(0));
    const uint32_t r = uint32_t(srcShape.GetDim(1));
    const uint32_t rPad = canopy::adv::sizes::round_up(r, 32 / typeSize);
    const uint32_t inputXSize = a * rPad;
    const uint32_t varianceSize = canopy::adv::sizes::round_up(a, 8);
    const uint32_t tmpBufSize = stackBufferSize / 4;
    if (tmpBufSize < varianceSize) return;
    uint32_t oneTmpSize = (tmpBufSize - varianceSize) / 2;
    oneTmpSize = std::min(oneTmpSize / rPad * rPad, inputXSize);
    if (oneTmpSize == 0) return;
    tiling.aLength = a;
    tiling.rLength = r;
    tiling.inputXSize = inputXSize;
    tiling.meanVarSize = a;
    tiling.numberOfTmpBuf = 2;
    tiling.varianceTmpTensorPos = 0;
    tiling.varianceTmpTensorSize = varianceSize;
    tiling.tmpBufSize = tmpBufSize;
    tiling.oneTmpSize = oneTmpSize;
    tiling.firstTmpStartPos = varianceSize;
    tiling.secondTmpStartPos = varianceSize + oneTmpSize;
    tiling.loopRound = inputXSize / oneTmpSize;
    tiling.inputRoundSize = oneTmpSize;
    tiling.inputTailSize = inputXSize % oneTmpSize;
    tiling.inputTailPos = inputXSize - tiling.inputTailSize;
    tiling.meanVarRoundSize = oneTmpSize / rPad;
    tiling.meanVarTailSize = tiling.inputTailSize / rPad;
    tiling.meanVarTailPos = a - tiling.meanVarTailSize;
    tiling.arCurLength = oneTmpSize;
    tiling.aCurLength = oneTmpSize / rPad;
    tiling.rValueBack = 1.0f / static_cast<float>(r);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    AscendC::tiling::LayerNormSeparateTiling plain{};
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, plain);
    canopy::adv::copy_tiling(plain, tiling);
}

// WelfordUpdate of [rnLength, abLength].
inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    if (srcShape.GetDimNum() != 2) return;
    minValue = canopy::adv::sizes::welford_update_min(typeSizeT, isReuseSource);
    maxValue = canopy::adv::sizes::welford_update_max(uint32_t(srcShape.GetDim(0)), uint32_t(srcShape.GetDim(1)),
                                                      typeSizeT, isReuseSource);
}

// WelfordFinalize of [abLength].
inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize;
    (void)isReuseSource;
    if (srcShape.GetDimNum() < 1) return;
    minValue = canopy::adv::sizes::welford_finalize_min();
    maxValue = canopy::adv::sizes::welford_finalize_max(uint32_t(srcShape.GetDim(0)));
}

// LayerNormGrad of [B, S, H, originH].
inline void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH)) return;
    maxValue = canopy::adv::sizes::layernorm_grad_max(b, s, h, typeSize, isReuseSource);
    minValue = canopy::adv::sizes::layernorm_grad_min(b, s, h, typeSize, isReuseSource);
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         AscendC::tiling::LayerNormGradTiling& tiling) {
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH) || oriH == 0) return;
    const uint32_t buffers = canopy::adv::sizes::layernorm_grad_buffers(typeSize, isReuseSource);
    uint32_t oneCalSize = stackBufferSize / 4 / buffers;
    oneCalSize = oneCalSize / h * h;
    const uint32_t perBlock = typeSize == 4 ? 8 : 16;
    const uint32_t nohCalSize = canopy::adv::sizes::round_up(oneCalSize / h, perBlock);
    oneCalSize = nohCalSize * h;
    const uint32_t inputXSize = b * s * h;
    tiling.tmpTensorBSHPos = 0;
    tiling.pdVarTensorPos = oneCalSize;
    tiling.pdMeanTensorPos = 2 * oneCalSize;
    tiling.x1TensorPos = 0;
    tiling.x2TensorPos = 0;
    tiling.x3TensorPos = 3 * oneCalSize;
    if (!(isReuseSource && typeSize == 4)) {
        tiling.x1TensorPos = 3 * oneCalSize;
        tiling.x2TensorPos = 4 * oneCalSize;
        tiling.x3TensorPos = 5 * oneCalSize;
    }
    tiling.tmpTensorPos = tiling.tmpTensor1Pos = tiling.tmpTensor2Pos = 0;
    if (typeSize == 2) {
        tiling.tmpTensorPos = tiling.x3TensorPos + oneCalSize;
        tiling.tmpTensor1Pos = tiling.tmpTensorPos + oneCalSize;
        tiling.tmpTensor2Pos = tiling.tmpTensor1Pos + oneCalSize;
    }
    tiling.tmpTensorBSHSize = tiling.pdVarTensorSize = tiling.pdMeanTensorSize = oneCalSize;
    tiling.x1TensorSize = tiling.x2TensorSize = tiling.x3TensorSize = oneCalSize;
    tiling.tmpTensorSize = tiling.tmpTensor1Size = tiling.tmpTensor2Size = oneCalSize;
    const float back = 1.0f / static_cast<float>(oriH);
    const float backTwo = 2.0f / static_cast<float>(oriH);
    tiling.stackBufferSize = stackBufferSize;
    tiling.bLength = b;
    tiling.sLength = s;
    tiling.hLength = h;
    tiling.originalHLength = oriH;
    tiling.oneCalSize = oneCalSize;
    tiling.nohCalSize = nohCalSize;
    tiling.loopNum = oneCalSize ? inputXSize / oneCalSize : 0;
    tiling.tailSize = oneCalSize ? inputXSize % oneCalSize : 0;
    tiling.nohTailSize = tiling.tailSize / h;
    std::memcpy(&tiling.lastDimValueBack, &back, sizeof(float));
    std::memcpy(&tiling.lastDimValueBackMulTwo, &backTwo, sizeof(float));
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
    AscendC::tiling::LayerNormGradTiling plain{};
    GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
    canopy::adv::copy_tiling(plain, tiling);
}

// LayerNormGradBeta of [B, S, H, originH].
inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH)) return;
    maxValue = canopy::adv::sizes::layernorm_grad_beta_max(b, s, h, typeSize);
    minValue = canopy::adv::sizes::layernorm_grad_beta_min(h, typeSize);
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             AscendC::tiling::LayerNormGradBetaTiling& tiling) {
    (void)isReuseSource;
    uint32_t b, s, h, oriH;
    if (!canopy::adv::sizes::layernorm_bsh(srcShape, b, s, h, oriH)) return;
    tiling.bLength = b;
    tiling.sLength = s;
    tiling.hLength = h;
    tiling.originalHLength = oriH;
    tiling.bshLength = b * s * h;
    tiling.bsLength = b * s;
    tiling.stackBufferSize = stackBufferSize / 4;
    uint32_t oneCalSize = tiling.stackBufferSize;
    tiling.numberOfTmpBuf = 1;
    if (typeSize == 2) {
        tiling.numberOfTmpBuf = 2;
        oneCalSize = oneCalSize > 2 * h ? (oneCalSize - 2 * h) / 2 : 0;
    }
    oneCalSize = std::min(oneCalSize / h * h, tiling.bshLength);
    tiling.oneCalSize = oneCalSize;
    if (oneCalSize == 0) return;
    tiling.loopRound = tiling.bshLength / oneCalSize;
    tiling.inputTailSize = tiling.bshLength % oneCalSize;
    tiling.inputTailPos = tiling.bshLength - tiling.inputTailSize;
    tiling.bsTailSize = tiling.inputTailSize / h;
    tiling.bshCurLength = oneCalSize;
    tiling.bsCurLength = oneCalSize / h;
    tiling.gammaTempTensorPos = tiling.betaTempTensorPos = tiling.inputDyTmpTensorPos = 0;
    tiling.resForGammaTmpTensorPos = 0;
    if (typeSize == 2) {
        tiling.betaTempTensorPos = h;
        tiling.inputDyTmpTensorPos = 2 * h;
        tiling.resForGammaTmpTensorPos = 2 * h + oneCalSize;
    }
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    AscendC::tiling::LayerNormGradBetaTiling plain{};
    GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
    canopy::adv::copy_tiling(plain, tiling);
}

}  // namespace AscendC
