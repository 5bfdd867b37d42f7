#pragma once
// The tiling structs of RmsNorm, DeepNorm and LayerNorm (CANN adv_api/normalization/*_tilingdata.h),
// as the kernel reads them.
#include <cstdint>

#include "canopy/adv/tiling_fields.h"

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

#define CANOPY_LAYERNORM_SEPARATE_TILING_FIELDS(F) \
    F(uint32_t, aLength)                           \
    F(uint32_t, rLength)                           \
    F(uint32_t, halfAddRepeatTimes)                \
    F(uint32_t, rHeadLength)                       \
    F(float, k2Rec)                                \
    F(float, k2RRec)                               \
    F(uint32_t, inputXSize)                        \
    F(uint32_t, meanVarSize)                       \
    F(uint32_t, numberOfTmpBuf)                    \
    F(uint32_t, varianceTmpTensorPos)              \
    F(uint32_t, varianceTmpTensorSize)             \
    F(uint32_t, tmpBufSize)                        \
    F(uint32_t, oneTmpSize)                        \
    F(uint32_t, firstTmpStartPos)                  \
    F(uint32_t, secondTmpStartPos)                 \
    F(uint32_t, thirdTmpStartPos)                  \
    F(uint32_t, loopRound)                         \
    F(uint32_t, inputRoundSize)                    \
    F(uint32_t, inputTailSize)                     \
    F(uint32_t, inputTailPos)                      \
    F(uint32_t, meanVarRoundSize)                  \
    F(uint32_t, meanVarTailSize)                   \
    F(uint32_t, meanVarTailPos)                    \
    F(uint32_t, arCurLength)                       \
    F(uint32_t, aCurLength)                        \
    F(float, rValueBack)

#define CANOPY_LAYERNORM_GRAD_TILING_FIELDS(F) \
    F(uint32_t, stackBufferSize)               \
    F(uint32_t, bLength)                       \
    F(uint32_t, sLength)                       \
    F(uint32_t, hLength)                       \
    F(uint32_t, originalHLength)               \
    F(uint32_t, oneCalSize)                    \
    F(uint32_t, nohCalSize)                    \
    F(uint32_t, loopNum)                       \
    F(uint32_t, tailSize)                      \
    F(uint32_t, nohTailSize)                   \
    F(uint32_t, tmpTensorBSHPos)               \
    F(uint32_t, tmpTensorBSHSize)              \
    F(uint32_t, pdVarTensorPos)                \
    F(uint32_t, pdVarTensorSize)               \
    F(uint32_t, pdMeanTensorPos)               \
    F(uint32_t, pdMeanTensorSize)              \
    F(uint32_t, x1TensorPos)                   \
    F(uint32_t, x1TensorSize)                  \
    F(uint32_t, x2TensorPos)                   \
    F(uint32_t, x2TensorSize)                  \
    F(uint32_t, x3TensorPos)                   \
    F(uint32_t, x3TensorSize)                  \
    F(uint32_t, tmpTensorPos)                  \
    F(uint32_t, tmpTensorSize)                 \
    F(uint32_t, tmpTensor1Pos)                 \
    F(uint32_t, tmpTensor1Size)                \
    F(uint32_t, tmpTensor2Pos)                 \
    F(uint32_t, tmpTensor2Size)                \
    F(uint32_t, lastDimValueBack)              \
    F(uint32_t, lastDimValueBackMulTwo)

#define CANOPY_LAYERNORM_GRAD_BETA_TILING_FIELDS(F) \
    F(uint32_t, stackBufferSize)                    \
    F(uint32_t, bLength)                            \
    F(uint32_t, sLength)                            \
    F(uint32_t, hLength)                            \
    F(uint32_t, originalHLength)                    \
    F(uint32_t, bshLength)                          \
    F(uint32_t, bsLength)                           \
    F(uint32_t, oneCalSize)                         \
    F(uint32_t, numberOfTmpBuf)                     \
    F(uint32_t, loopRound)                          \
    F(uint32_t, inputTailSize)                      \
    F(uint32_t, inputTailPos)                       \
    F(uint32_t, bsTailSize)                         \
    F(uint32_t, bshCurLength)                       \
    F(uint32_t, bsCurLength)                        \
    F(uint32_t, gammaTempTensorPos)                 \
    F(uint32_t, betaTempTensorPos)                  \
    F(uint32_t, inputDyTmpTensorPos)                \
    F(uint32_t, resForGammaTmpTensorPos)            \
    F(uint32_t, reserved)

CANOPY_DECLARE_KERNEL_TILING(LayerNormSeparateTiling, CANOPY_LAYERNORM_SEPARATE_TILING_FIELDS)
CANOPY_DECLARE_KERNEL_TILING(LayerNormGradTiling, CANOPY_LAYERNORM_GRAD_TILING_FIELDS)
CANOPY_DECLARE_KERNEL_TILING(LayerNormGradBetaTiling, CANOPY_LAYERNORM_GRAD_BETA_TILING_FIELDS)
