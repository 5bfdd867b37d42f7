#pragma once
// SwiGLU's temporary buffer (CANN's adv_api/activation/swiglu_tiling.h): none for float; six
// 256-byte float live nodes for half.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t swiglu_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 0 : 6; }
inline constexpr uint32_t swiglu_min(uint32_t typeSize) { return swiglu_nodes(typeSize) * 256; }
inline constexpr uint32_t swiglu_max(uint32_t inputSize, uint32_t typeSize) {
    return swiglu_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    (void)isReuseSource;
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
    minValue = canopy::kernel::adv::sizes::swiglu_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::swiglu_max(inputSize, typeSize);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    extraBuffer = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::swiglu_nodes(typeSize);
}

}  // namespace AscendC
