#pragma once
// Host tiling of DropOut (CANN adv_api/filter/dropout_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    return canopy::adv::sizes::dropout_min();
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    (void)typeSize;
    (void)isReuseSource;
    uint32_t elements = 1;
    for (int64_t dim : srcShape.GetDims()) elements *= uint32_t(dim);
    return canopy::adv::sizes::dropout_max(elements);
}
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
