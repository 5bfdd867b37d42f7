#pragma once
// Host tiling of Broadcast (CANN adv_api/pad/broadcast_tiling.h) for the A2, the architecture
// Canopy models: the platform argument is not consulted. Shapes are 1- or 2-dimensional and the
// source broadcasts to the destination (each dimension equal or 1).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace platform_ascendc {
class PlatformAscendC;
}

namespace AscendC {

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const TensorShape& srcShape, const TensorShape& dstShape, uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)isReuseSource;
    const size_t dims = dstShape.GetDimNum();
    if ((dims != 1 && dims != 2) || srcShape.GetDimNum() != dims) return;
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) return;
    for (size_t i = 0; i < dims; ++i) {
        if (srcShape.GetDim(i) != dstShape.GetDim(i) && srcShape.GetDim(i) != 1) return;
    }
    const uint32_t srcLast = dims == 2 ? uint32_t(srcShape.GetDim(1)) : 1;
    const uint32_t dstLast = dims == 2 ? uint32_t(dstShape.GetDim(1)) : 1;
    const auto sizes = canopy::adv::sizes::broadcast(uint32_t(srcShape.GetDim(0)), srcLast,
                                                     uint32_t(dstShape.GetDim(0)), dstLast, typeSize);
    minValue = sizes.min_value;
    maxValue = sizes.max_value;
}

}  // namespace AscendC
