#pragma once
// ClampMax / ClampMin's temporary buffer (CANN's adv_api/math/clamp_tiling.h): a byte mask of one
// repeat (64 float or 128 half elements) at least, one byte per element at most.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t clamp_min(uint32_t typeSize) { return typeSize == sizeof(float) ? 64 : 128; }
inline constexpr uint32_t clamp_max(uint32_t inputSize, uint32_t typeSize) {
    return std::max(inputSize, clamp_min(typeSize));
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetClampMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::adv::host_check(inputSize > 0, "GetClampMaxMinTmpSize", "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::adv::sizes::clamp_min(typeSize);
    maxValue = canopy::adv::sizes::clamp_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)typeSize;
    extraBuf = 0;
    maxLiveNodeCount = 1;
}

}  // namespace AscendC
