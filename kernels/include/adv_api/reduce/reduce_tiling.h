#pragma once
// Host tiling of ReduceMax / ReduceMin (CANN adv_api/reduce/reduce_tiling.h).
#include <cstdint>

#include "canopy/adv_norm/host_support.h"
#include "canopy/adv_norm/reduce_pattern.h"
#include "canopy/adv_norm/sizes.h"

namespace AscendC {

namespace canopy_reduce_detail {
inline uint32_t type_size(TensorDataType dataType) {
    if (dataType == ge::DT_FLOAT || dataType == ge::DT_INT32) return 4;
    if (dataType == ge::DT_FLOAT16) return 2;
    return 1;
}
inline void extreme(const TensorShape& srcShape, TensorDataType dataType, ReducePattern pattern, bool isReuseSource,
                    uint32_t& maxValue, uint32_t& minValue) {
    if (srcShape.GetDimNum() != 2 || (pattern != ReducePattern::AR && pattern != ReducePattern::RA)) return;
    maxValue = minValue = canopy::adv_norm::sizes::reduce_extreme(uint32_t(srcShape.GetDim(0)),
                                                                  uint32_t(srcShape.GetDim(1)), type_size(dataType),
                                                                  pattern == ReducePattern::AR, isReuseSource);
}
}  // namespace canopy_reduce_detail

inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isSrcInnerPad;
    canopy_reduce_detail::extreme(srcShape, dataType, pattern, isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isSrcInnerPad;
    canopy_reduce_detail::extreme(srcShape, dataType, pattern, isReuseSource, maxValue, minValue);
}

}  // namespace AscendC
