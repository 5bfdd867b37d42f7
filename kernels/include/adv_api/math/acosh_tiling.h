#pragma once
// Acosh's temporary buffer (CANN's adv_api/math/acosh_tiling.h): float needs one 256-byte repeat of
// working space per live node, half two (it is computed in float).
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t acosh_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 2; }
inline constexpr uint32_t acosh_min(uint32_t typeSize) { return acosh_nodes(typeSize) * 256; }
inline constexpr uint32_t acosh_max(uint32_t inputSize, uint32_t typeSize) {
    return std::max(acosh_nodes(typeSize) * inputSize, 256u) * typeSize;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetAcoshMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::adv::host_check(inputSize > 0, "GetAcoshMaxMinTmpSize", "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::adv::sizes::acosh_min(typeSize);
    maxValue = canopy::adv::sizes::acosh_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::adv::sizes::acosh_nodes(typeSize);
}

}  // namespace AscendC
