#pragma once
// GeGLU's temporary buffer (CANN's adv_api/activation/geglu_tiling.h): none for float; four
// 256-byte float live nodes for half.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t geglu_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 0 : 4; }
inline constexpr uint32_t geglu_min(uint32_t typeSize) { return geglu_nodes(typeSize) * 256; }
inline constexpr uint32_t geglu_max(uint32_t inputSize, uint32_t typeSize) {
    return geglu_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
    minValue = canopy::kernel::adv::sizes::geglu_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::geglu_max(inputSize, typeSize);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::geglu_nodes(typeSize);
}

}  // namespace AscendC
