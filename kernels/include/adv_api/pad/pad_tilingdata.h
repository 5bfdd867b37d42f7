#pragma once
// The tiling structs of Pad and UnPad (CANN adv_api/pad/pad_tilingdata.h), as the kernel reads them.
#include <cstdint>

#include "canopy/adv/tiling_fields.h"

#define CANOPY_UNPAD_TILING_FIELDS(F)   \
    F(uint32_t, srcHeight)              \
    F(uint32_t, srcWidth)               \
    F(uint32_t, tmpBuffer1BlockNum)     \
    F(uint32_t, tmpBuffer1RowNum)       \
    F(uint32_t, tmpBuffer2Offset)       \
    F(uint32_t, widthTiling)            \
    F(uint32_t, widthFractal)           \
    F(uint32_t, widthFractalTail)

#define CANOPY_PAD_TILING_FIELDS(F)            \
    F(uint32_t, srcHeight)                     \
    F(uint32_t, srcWidth)                      \
    F(uint32_t, srcOriWidth)                   \
    F(uint32_t, widthWithoutLastBlock)         \
    F(uint32_t, blocksPerRow)                  \
    F(uint32_t, heightTiling)                  \
    F(uint32_t, heightFractal)                 \
    F(uint32_t, heightFractalTail)             \
    F(uint32_t, mainLoopOffset)                \
    F(uint32_t, tailBlockOffset)               \
    F(uint32_t, tmpBuffer1BlockNum)            \
    F(uint32_t, tmpBuffer1RowNum)              \
    F(uint32_t, tmpBuffer2Offset)              \
    F(uint32_t, widthTiling)                   \
    F(uint32_t, widthFractal)                  \
    F(uint32_t, widthFractalTail)              \
    F(uint32_t, widthFractalTailAlingned)      \
    F(uint32_t, brcbTiling)                    \
    F(uint32_t, brcbFractal)                   \
    F(uint32_t, brcbFractalTail)               \
    F(uint32_t, maxRepeatTimes)                \
    F(uint32_t, brcbTilingRepeatTimes)         \
    F(uint32_t, brcbTilingRepeatTimesTail)     \
    F(uint32_t, brcbFractalTailRepeatTimes)    \
    F(uint32_t, brcbFractalTailRepeatTimesTail) \
    F(uint32_t, reserved)

CANOPY_DECLARE_KERNEL_TILING(UnPadTiling, CANOPY_UNPAD_TILING_FIELDS)
CANOPY_DECLARE_KERNEL_TILING(PadTiling, CANOPY_PAD_TILING_FIELDS)
