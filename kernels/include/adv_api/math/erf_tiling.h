#pragma once
// Erf's temporary buffer (CANN's adv_api/math/erf_tiling.h): three 256-byte live nodes for float, eight for half (computed in float).
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/host_check.h"
#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t erf_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 3 : 8; }
inline constexpr uint32_t erf_min(uint32_t typeSize) { return erf_nodes(typeSize) * 256; }
inline constexpr uint32_t erf_max(uint32_t inputSize, uint32_t typeSize) {
    return erf_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetErfMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::kernel::adv::host_check(inputSize > 0, "GetErfMaxMinTmpSize",
                                         "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::kernel::adv::sizes::erf_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::erf_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetErfTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::erf_nodes(typeSize);
}

}  // namespace AscendC
