#pragma once
// Host tiling of Transpose / ConfusionTranspose (CANN adv_api/transpose/confusion_transpose_tiling.h),
// the 0213 forms (transposeTypeIn 1 and 2). srcShape is [B, A1, A2, A3].
#include <cstdint>

#include "adv_api/transpose/confusion_transpose_tilingdata.h"
#include "canopy/adv/host_support.h"

CANOPY_DECLARE_HOST_TILING(ConfusionTransposeTiling, CANOPY_CONFUSION_TRANSPOSE_TILING_FIELDS)

namespace canopy::adv::sizes {
inline bool transpose_is_0213(uint32_t type) { return type == 1 || type == 2; }
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
    if (!canopy::adv::sizes::transpose_is_0213(transposeTypeIn) || srcShape.GetDimNum() != 4) return;
    const uint32_t alignA2 = (uint32_t(srcShape.GetDim(2)) + 15) / 16 * 16;
    maxValue = alignA2 * 16 * typeSize;
    minValue = 256 * typeSize;
}
inline void GetConfusionTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
    GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   AscendC::tiling::ConfusionTransposeTiling& tiling) {
    if (!canopy::adv::sizes::transpose_is_0213(transposeTypeIn) || srcShape.GetDimNum() != 4 || typeSize == 0) return;
    const uint32_t b = uint32_t(srcShape.GetDim(0));
    const uint32_t a1 = uint32_t(srcShape.GetDim(1));
    const uint32_t alignA2 = (uint32_t(srcShape.GetDim(2)) + 15) / 16 * 16;
    const uint32_t widthTiling = (uint32_t(srcShape.GetDim(3)) + 15) / 16;
    const uint32_t alignA3 = widthTiling * 16;
    const uint32_t newPopSize = (stackBufferSize / typeSize / 256) * 256;
    const uint32_t newPopH = newPopSize / 16;
    const uint32_t needSize = alignA2 * 16;
    tiling.param0 = 32 / typeSize;
    tiling.param1 = b;
    tiling.param2 = a1;
    tiling.param3 = alignA3;
    tiling.param4 = alignA2;
    tiling.param5 = widthTiling;
    tiling.param6 = newPopSize;
    tiling.param7 = newPopH;
    tiling.param8 = needSize;
    tiling.param9 = newPopSize ? needSize / newPopSize : 0;
    tiling.param10 = newPopSize ? needSize % newPopSize : 0;
    tiling.param11 = alignA2 * alignA3;
    tiling.param12 = a1 * alignA2 * alignA3;
    tiling.param13 = a1 * alignA3;
    tiling.param14 = a1 * 16;
    tiling.param15 = newPopH * tiling.param9 * a1 * alignA3;
}
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   optiling::ConfusionTransposeTiling& tiling) {
    AscendC::tiling::ConfusionTransposeTiling plain{};
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, plain);
    canopy::adv::copy_tiling(plain, tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

}  // namespace AscendC
