#pragma once
// The tiling structs of RmsNorm, DeepNorm and LayerNorm (CANN adv_api/normalization/*_tilingdata.h),
// as the kernel reads them.
#include <cstdint>

#include "canopy/adv_norm/tiling_fields.h"

#define CANOPY_RMSNORM_TILING_FIELDS(F) \
    F(uint32_t, bLength)                \
    F(uint32_t, sLength)                \
    F(uint32_t, hLength)                \
    F(uint32_t, originalHLength)        \
    F(float, reciprocalOfHLength)       \
    F(uint32_t, mainBshLength)          \
    F(uint32_t, mainBsLength)           \
    F(uint32_t, mainBsLengthAlign)      \
    F(uint32_t, loopRound)              \
    F(uint32_t, inputTailPos)           \
    F(uint32_t, tailBshLength)          \
    F(uint32_t, tailBsLength)

// DeepNorm and the LayerNorm of [B, S, H] share this layout.
#define CANOPY_LAYERNORM_BSH_TILING_FIELDS(F) \
    F(uint32_t, bLength)                      \
    F(uint32_t, sLength)                      \
    F(uint32_t, hLength)                      \
    F(uint32_t, originalHLength)              \
    F(uint32_t, inputXSize)                   \
    F(uint32_t, meanVarSize)                  \
    F(uint32_t, numberOfTmpBuf)               \
    F(uint32_t, meanTmpTensorPos)             \
    F(uint32_t, meanTmpTensorSize)            \
    F(uint32_t, varianceTmpTensorPos)         \
    F(uint32_t, varianceTmpTensorSize)        \
    F(uint32_t, tmpBufSize)                   \
    F(uint32_t, oneTmpSize)                   \
    F(uint32_t, firstTmpStartPos)             \
    F(uint32_t, secondTmpStartPos)            \
    F(uint32_t, thirdTmpStartPos)             \
    F(uint32_t, loopRound)                    \
    F(uint32_t, inputRoundSize)               \
    F(uint32_t, inputTailSize)                \
    F(uint32_t, inputTailPos)                 \
    F(uint32_t, meanVarRoundSize)             \
    F(uint32_t, meanVarTailSize)              \
    F(uint32_t, meanVarTailPos)               \
    F(uint32_t, bshCurLength)                 \
    F(uint32_t, bsCurLength)                  \
    F(float, lastDimValueBack)

CANOPY_DECLARE_KERNEL_TILING(RmsNormTiling, CANOPY_RMSNORM_TILING_FIELDS)
CANOPY_DECLARE_KERNEL_TILING(DeepNormTiling, CANOPY_LAYERNORM_BSH_TILING_FIELDS)
CANOPY_DECLARE_KERNEL_TILING(LayerNormTiling, CANOPY_LAYERNORM_BSH_TILING_FIELDS)
