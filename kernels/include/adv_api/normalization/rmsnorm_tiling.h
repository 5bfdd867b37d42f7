#pragma once
// Host tiling of RmsNorm (CANN adv_api/normalization/rmsnorm_tiling.h).
#include <cstdint>

#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

CANOPY_DECLARE_HOST_TILING(RmsNormTiling, CANOPY_RMSNORM_TILING_FIELDS)

namespace canopy::adv::sizes {
inline bool rmsnorm_basic_block_misfit(uint32_t b, uint32_t s, uint32_t h) {
    return h % 64 != 0 || b * s % 8 != 0 || h >= 2048;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    if (srcShape.GetDimNum() != 3) return false;
    const uint32_t b = uint32_t(srcShape.GetDim(0));
    const uint32_t s = uint32_t(srcShape.GetDim(1));
    const uint32_t h = uint32_t(srcShape.GetDim(2));
    if (isBasicBlock && canopy::adv::sizes::rmsnorm_basic_block_misfit(b, s, h)) return false;
    maxValue = canopy::adv::sizes::rmsnorm_max(b, s, h, typeSize);
    minValue = canopy::adv::sizes::rmsnorm_min(h, typeSize);
    return true;
}

inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
    const uint32_t b = uint32_t(srcShape.GetDim(0));
    const uint32_t s = uint32_t(srcShape.GetDim(1));
    const uint32_t h = uint32_t(srcShape.GetDim(2));
    const uint32_t oriH = uint32_t(originSrcShape.GetDim(2));
    if (uint32_t(originSrcShape.GetDim(0)) != b || uint32_t(originSrcShape.GetDim(1)) != s || h < oriH || oriH == 0)
        return false;
    if (h * typeSize % 32 != 0) return false;
    if (isBasicBlock && canopy::adv::sizes::rmsnorm_basic_block_misfit(b, s, h)) return false;
    if (stackBufferByteSize < canopy::adv::sizes::rmsnorm_min(h, typeSize)) return false;
    tiling.bLength = b;
    tiling.sLength = s;
    tiling.hLength = h;
    tiling.originalHLength = oriH;
    tiling.reciprocalOfHLength = 1.0f / static_cast<float>(oriH);
    const uint32_t total = stackBufferByteSize / 4;
    const uint32_t coeff = typeSize == 4 ? 1 : 2;
    uint32_t bs = 1;
    while (total >= (bs + 1) * h * coeff + canopy::adv::sizes::round_up(bs + 1, 8)) ++bs;
    const uint32_t inputXSize = b * s * h;
    uint32_t oneTmpSize = std::min(bs * h, inputXSize);
    bs = oneTmpSize / h;
    if (isBasicBlock) {
        bs = bs < 8 ? bs : bs / 8 * 8;
    } else if (bs > 255) {
        bs = 255;
    }
    oneTmpSize = bs * h;
    tiling.mainBshLength = oneTmpSize;
    tiling.mainBsLength = bs;
    tiling.mainBsLengthAlign = canopy::adv::sizes::round_up(bs, 8);
    tiling.loopRound = inputXSize / oneTmpSize;
    const uint32_t tail = inputXSize % oneTmpSize;
    tiling.tailBshLength = tail;
    tiling.inputTailPos = inputXSize - tail;
    tiling.tailBsLength = tail / h;
    return true;
}
inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    AscendC::tiling::RmsNormTiling plain{};
    if (!GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, plain, isBasicBlock))
        return false;
    canopy::adv::copy_tiling(plain, tiling);
    return true;
}

}  // namespace AscendC
