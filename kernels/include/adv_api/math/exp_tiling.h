#pragma once
// Exp's temporary buffer (CANN's adv_api/math/exp_tiling.h): the Taylor expansion keeps float
// working tensors, four for half, three for float (two when the source may be reused).
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t exp_buffers(uint32_t typeSize, bool isReuseSource) {
    return typeSize == sizeof(float) ? (isReuseSource ? 2 : 3) : 4;
}
inline constexpr uint32_t exp_min(uint32_t typeSize, bool isReuseSource) {
    return exp_buffers(typeSize, isReuseSource) * 256;
}
inline constexpr uint32_t exp_max(uint32_t inputSize, uint32_t typeSize, bool isReuseSource) {
    return exp_buffers(typeSize, isReuseSource) * std::max<uint32_t>(inputSize * 4, 256);
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline bool GetExpMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
    minValue = canopy::adv::sizes::exp_min(typeSize, isReuseSource);
    maxValue = canopy::adv::sizes::exp_max(inputSize, typeSize, isReuseSource);
    return true;
}

inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == sizeof(float) ? 3 : 8;
}

}  // namespace AscendC
