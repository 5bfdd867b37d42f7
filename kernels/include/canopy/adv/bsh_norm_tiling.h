#pragma once
// The [B, S, H] normalization tiling DeepNorm and LayerNorm share (CANN's rule): the temporary
// buffer split into mean / variance (half inputs only) and three (two) tensors of whole H rows.
#include <algorithm>
#include <cstdint>

#include "adv_api/normalization/normalization_tilingdata.h"
#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv {

template <typename Tiling>
inline bool bsh_norm_tiling(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                            uint32_t stackBufferSize, uint32_t typeSize, bool isReuseSource, bool isBasicBlock,
                            Tiling& tiling) {
    if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
    const uint32_t b = uint32_t(srcShape.GetDim(0));
    const uint32_t s = uint32_t(srcShape.GetDim(1));
    const uint32_t h = uint32_t(srcShape.GetDim(2));
    const uint32_t oriH = uint32_t(originSrcShape.GetDim(2));
    if (b * s == 0 || h == 0) return false;
    if (uint32_t(originSrcShape.GetDim(0)) != b || uint32_t(originSrcShape.GetDim(1)) != s) return false;
    if (h * typeSize % 32 != 0 || oriH == 0 || oriH > h || h > 255 * 8) return false;
    if (isBasicBlock && (h % 64 != 0 || (b * s) % 8 != 0 || oriH != h)) return false;
    if (stackBufferSize < sizes::bsh_norm_min(b, s, h, typeSize, isReuseSource)) return false;
    const uint32_t inputXSize = b * s * h;
    const uint32_t meanVarSize = b * s;
    const uint32_t numberOfTmpBuf = (isReuseSource && typeSize == 4) ? 2 : 3;
    const uint32_t meanTmpTensorSize = sizes::round_up(meanVarSize, 8);
    const uint32_t meanVarTotalSize = typeSize == 4 ? 0 : 2 * meanTmpTensorSize;
    const uint32_t tmpBufSize = stackBufferSize / 4;
    uint32_t oneTmpSize = (tmpBufSize - meanVarTotalSize) / numberOfTmpBuf;
    oneTmpSize = oneTmpSize / h * h;
    oneTmpSize = std::min(oneTmpSize, inputXSize);
    if (isBasicBlock && oneTmpSize / (8 * h) > 0) oneTmpSize = oneTmpSize / (8 * h) * (8 * h);
    if (oneTmpSize == 0) return false;
    tiling.bLength = b;
    tiling.sLength = s;
    tiling.hLength = h;
    tiling.originalHLength = oriH;
    tiling.inputXSize = inputXSize;
    tiling.meanVarSize = meanVarSize;
    tiling.numberOfTmpBuf = numberOfTmpBuf;
    tiling.meanTmpTensorPos = 0;
    tiling.meanTmpTensorSize = meanTmpTensorSize;
    tiling.varianceTmpTensorPos = meanTmpTensorSize;
    tiling.varianceTmpTensorSize = meanTmpTensorSize;
    tiling.tmpBufSize = tmpBufSize;
    tiling.oneTmpSize = oneTmpSize;
    tiling.firstTmpStartPos = meanVarTotalSize;
    tiling.secondTmpStartPos = meanVarTotalSize + oneTmpSize;
    tiling.thirdTmpStartPos = meanVarTotalSize + 2 * oneTmpSize;
    tiling.loopRound = inputXSize / oneTmpSize;
    tiling.inputTailSize = inputXSize % oneTmpSize;
    tiling.inputTailPos = inputXSize - tiling.inputTailSize;
    tiling.inputRoundSize = oneTmpSize;
    tiling.meanVarRoundSize = oneTmpSize / h;
    tiling.meanVarTailSize = tiling.inputTailSize / h;
    tiling.meanVarTailPos = meanVarSize - tiling.meanVarTailSize;
    tiling.bshCurLength = oneTmpSize;
    tiling.bsCurLength = oneTmpSize / h;
    tiling.lastDimValueBack = 1.0f / static_cast<float>(oriH);
    return true;
}

}  // namespace canopy::adv
