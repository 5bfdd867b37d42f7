#pragma once
// Ceil's temporary buffer (CANN's adv_api/math/ceil_tiling.h): one 256-byte live node for float, two
// for half.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/host_check.h"
#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t ceil_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 2; }
inline constexpr uint32_t ceil_min(uint32_t typeSize) { return ceil_nodes(typeSize) * 256; }
inline constexpr uint32_t ceil_max(uint32_t inputSize, uint32_t typeSize) {
    return ceil_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetCeilMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::kernel::adv::host_check(inputSize > 0, "GetCeilMaxMinTmpSize",
                                         "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::kernel::adv::sizes::ceil_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::ceil_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetCeilTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::ceil_nodes(typeSize);
}

}  // namespace AscendC
