#pragma once
// Host tiling of ReduceMax / ReduceMin (CANN adv_api/reduce/reduce_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/reduce_pattern.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv::sizes {
inline uint32_t reduce_type_size(AscendC::TensorDataType dataType) {
    if (dataType == ge::DT_FLOAT || dataType == ge::DT_INT32) return 4;
    if (dataType == ge::DT_FLOAT16) return 2;
    return 1;
}
inline void reduce_extreme_of(const AscendC::TensorShape& srcShape, AscendC::TensorDataType dataType,
                              AscendC::ReducePattern pattern, bool isReuseSource, uint32_t& maxValue,
                              uint32_t& minValue) {
    if (srcShape.GetDimNum() != 2 || (pattern != AscendC::ReducePattern::AR && pattern != AscendC::ReducePattern::RA))
        return;
    maxValue = minValue = canopy::adv::sizes::reduce_extreme(uint32_t(srcShape.GetDim(0)), uint32_t(srcShape.GetDim(1)),
                                                             reduce_type_size(dataType),
                                                             pattern == AscendC::ReducePattern::AR, isReuseSource);
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isSrcInnerPad;
    canopy::adv::sizes::reduce_extreme_of(srcShape, dataType, pattern, isReuseSource, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isSrcInnerPad;
    canopy::adv::sizes::reduce_extreme_of(srcShape, dataType, pattern, isReuseSource, maxValue, minValue);
}

}  // namespace AscendC
