#pragma once
// CumSum's temporary buffer (CANN's adv_api/math/cumsum_tiling.h). Along the first axis: none for
// float, the whole tile in float for half. Along the last axis the rows go through two transposes
// of 16 rows at a time (plus a float copy for half); the maximum does all rows at once.
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t cumsum_rows_per_transpose = 16;
inline constexpr uint32_t cumsum_last_axis_bytes(uint32_t rows, uint32_t inner, uint32_t typeSize) {
    const uint32_t cast = typeSize == 2 ? inner * rows * 2 : 0;
    return cast + rows * inner * typeSize * 2;
}
inline constexpr uint32_t cumsum_min(uint32_t outter, uint32_t inner, uint32_t typeSize, bool isLastAxis) {
    if (!isLastAxis) return typeSize == 2 ? outter * inner * 4 : 0;
    return cumsum_last_axis_bytes(cumsum_rows_per_transpose, inner, typeSize);
}
inline constexpr uint32_t cumsum_max(uint32_t outter, uint32_t inner, uint32_t typeSize, bool isLastAxis) {
    if (!isLastAxis) return typeSize == 2 ? outter * inner * 4 : 0;
    const uint32_t aligned = (outter + cumsum_rows_per_transpose - 1) / cumsum_rows_per_transpose *
                             cumsum_rows_per_transpose;
    return cumsum_last_axis_bytes(aligned, inner, typeSize);
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    using canopy::adv::host_check;
    if (!host_check(srcShape.GetDimNum() == 2, "GetCumSumMaxMinTmpSize", "The shape must have 2 dimensions.")) return;
    if (!host_check(typeSize == 2 || typeSize == 4, "GetCumSumMaxMinTmpSize", "Now only support half and float."))
        return;
    if (!host_check(srcShape.GetDim(1) > 0 && (srcShape.GetDim(1) * typeSize) % 32 == 0, "GetCumSumMaxMinTmpSize",
                    "The inner dim should be 32B aligned."))
        return;
    const auto outter = static_cast<uint32_t>(srcShape.GetDim(0));
    const auto inner = static_cast<uint32_t>(srcShape.GetDim(1));
    minValue = canopy::adv::sizes::cumsum_min(outter, inner, typeSize, isLastAxis);
    maxValue = canopy::adv::sizes::cumsum_max(outter, inner, typeSize, isLastAxis);
}

}  // namespace AscendC
