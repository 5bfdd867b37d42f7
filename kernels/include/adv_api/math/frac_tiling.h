#pragma once
// Frac's temporary buffer (CANN's adv_api/math/frac_tiling.h): none for float; four 256-byte live nodes for half (computed in float).
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/host_check.h"
#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t frac_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 0 : 4; }
inline constexpr uint32_t frac_min(uint32_t typeSize) { return frac_nodes(typeSize) * 256; }
inline constexpr uint32_t frac_max(uint32_t inputSize, uint32_t typeSize) {
    return frac_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetFracMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::kernel::adv::host_check(inputSize > 0, "GetFracMaxMinTmpSize",
                                         "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::kernel::adv::sizes::frac_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::frac_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetFracTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::frac_nodes(typeSize);
}

}  // namespace AscendC
