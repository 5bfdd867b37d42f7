#pragma once
// Host tiling of Pad and UnPad (CANN adv_api/pad/pad_tiling.h).
#include <cstdint>

#include "adv_api/pad/pad_tilingdata.h"
#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

CANOPY_DECLARE_HOST_TILING(UnPadTiling, CANOPY_UNPAD_TILING_FIELDS)
CANOPY_DECLARE_HOST_TILING(PadTiling, CANOPY_PAD_TILING_FIELDS)

namespace platform_ascendc {
class PlatformAscendC;
}

namespace AscendC {

inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4)) return;
    maxValue = canopy::adv::sizes::pad_max(uint32_t(srcShape.GetShapeSize()), typeSize);
    minValue = canopy::adv::sizes::pad_min(typeSize);
}

inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
    if (srcShape.GetDimNum() != 2 || oriSrcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4)) return;
    const uint32_t height = uint32_t(srcShape.GetDim(0));
    const uint32_t width = uint32_t(srcShape.GetDim(1));
    tiling.srcHeight = height;
    tiling.srcWidth = width;
    tiling.srcOriWidth = uint32_t(oriSrcShape.GetDim(1));
    tiling.widthWithoutLastBlock = width - 32 / typeSize;
    tiling.blocksPerRow = width * typeSize / 32;
    tiling.heightTiling = 255;
    tiling.heightFractal = height / 255;
    tiling.heightFractalTail = height % 255;
    tiling.mainLoopOffset = 255 * width;
    tiling.tailBlockOffset = tiling.heightFractal * 255 * width + tiling.widthWithoutLastBlock;
    if (stackBufferSize == 0) return;
    const uint32_t baseBlockSize = 16 * 32 / typeSize;
    const uint32_t blockNum = stackBufferSize / typeSize / baseBlockSize / 2;
    tiling.tmpBuffer1RowNum = 16 * blockNum;
    tiling.tmpBuffer1BlockNum = blockNum;
    tiling.tmpBuffer2Offset = blockNum * baseBlockSize;
    const uint32_t widthTiling = 16 * blockNum;
    if (widthTiling == 0) return;
    tiling.widthTiling = widthTiling;
    tiling.widthFractal = width / widthTiling;
    tiling.widthFractalTail = width % widthTiling;
    tiling.widthFractalTailAlingned = ((tiling.widthFractalTail - 1) / (32 / typeSize) + 1) * (32 / typeSize);
    tiling.brcbTiling = widthTiling;
    tiling.brcbFractal = height * width / widthTiling;
    tiling.brcbFractalTail = height * width % widthTiling;
    tiling.maxRepeatTimes = 254;
    tiling.brcbTilingRepeatTimes = widthTiling / 8 / 254;
    tiling.brcbTilingRepeatTimesTail = widthTiling / 8 % 254;
    tiling.brcbFractalTailRepeatTimes = tiling.brcbFractalTail / 8 / 254;
    tiling.brcbFractalTailRepeatTimesTail = tiling.brcbFractalTail / 8 % 254;
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    AscendC::tiling::PadTiling plain{};
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, plain);
    canopy::adv::copy_tiling(plain, tiling);
}

// UnPad on the A2 (the architecture Canopy models) needs no temporary buffer.
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)srcShape;
    (void)typeSize;
    maxValue = 0;
    minValue = 0;
}

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            AscendC::tiling::UnPadTiling& tiling) {
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4)) return;
    const uint32_t width = uint32_t(srcShape.GetDim(1));
    tiling.srcHeight = uint32_t(srcShape.GetDim(0));
    tiling.srcWidth = width;
    if (stackBufferSize == 0) return;
    const uint32_t baseBlockSize = 16 * 32 / typeSize;
    const uint32_t blockNum = stackBufferSize / typeSize / baseBlockSize / 2;
    tiling.tmpBuffer1BlockNum = blockNum;
    tiling.tmpBuffer1RowNum = 16 * blockNum;
    tiling.tmpBuffer2Offset = blockNum * baseBlockSize;
    const uint32_t widthTiling = 16 * blockNum;
    if (widthTiling == 0) return;
    tiling.widthTiling = widthTiling;
    tiling.widthFractal = width / widthTiling;
    tiling.widthFractalTail = width % widthTiling;
    if (tiling.widthFractalTail != 0) {
        tiling.widthFractal += 1;
    } else {
        tiling.widthFractalTail = widthTiling;
    }
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    AscendC::tiling::UnPadTiling plain{};
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, plain);
    canopy::adv::copy_tiling(plain, tiling);
}

}  // namespace AscendC
