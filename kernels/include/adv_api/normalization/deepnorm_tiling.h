#pragma once
// Host tiling of DeepNorm (CANN adv_api/normalization/deepnorm_tiling.h).
#include <cstdint>

#include "canopy/adv/bsh_norm_tiling.h"

CANOPY_DECLARE_HOST_TILING(DeepNormTiling, CANOPY_LAYERNORM_BSH_TILING_FIELDS)

namespace AscendC {

inline bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    if (srcShape.GetDimNum() != 3) return false;
    const uint32_t b = uint32_t(srcShape.GetDim(0));
    const uint32_t s = uint32_t(srcShape.GetDim(1));
    const uint32_t h = uint32_t(srcShape.GetDim(2));
    if (isBasicBlock && !(h % 64 == 0 && h > 0 && (b * s) % 8 == 0)) return false;
    maxValue = canopy::adv::sizes::bsh_norm_max(b, s, h, typeSize, isReuseSource);
    minValue = canopy::adv::sizes::bsh_norm_min(b, s, h, typeSize, isReuseSource);
    return true;
}

inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling) {
    return canopy::adv::bsh_norm_tiling(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
                                        isBasicBlock, tiling);
}
inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
    AscendC::tiling::DeepNormTiling plain{};
    if (!GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock,
                               plain))
        return false;
    canopy::adv::copy_tiling(plain, tiling);
    return true;
}

}  // namespace AscendC
