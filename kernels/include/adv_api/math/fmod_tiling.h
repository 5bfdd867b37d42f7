#pragma once
// Fmod's temporary buffer (CANN's adv_api/math/fmod_tiling.h): Trunc's live nodes (one for float,
// two for half), plus six for half's float copies.
#include <algorithm>
#include <cstdint>

#include "adv_api/math/trunc_tiling.h"
#include "adv_api/utils/host_check.h"
#include "adv_api/utils/types.h"

namespace canopy::kernel::adv::sizes {
inline constexpr uint32_t fmod_nodes(uint32_t typeSize) {
    return trunc_nodes(typeSize) + (typeSize == sizeof(float) ? 0 : 6);
}
inline constexpr uint32_t fmod_min(uint32_t typeSize) { return fmod_nodes(typeSize) * 256; }
inline constexpr uint32_t fmod_max(uint32_t inputSize, uint32_t typeSize) {
    return fmod_nodes(typeSize) * std::max(inputSize * typeSize, 256u);
}
}  // namespace canopy::kernel::adv::sizes

namespace AscendC {

inline void GetFmodMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::kernel::adv::host_check(inputSize > 0, "GetFmodMaxMinTmpSize",
                                         "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::kernel::adv::sizes::fmod_min(typeSize);
    maxValue = canopy::kernel::adv::sizes::fmod_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetFmodTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::kernel::adv::sizes::fmod_nodes(typeSize);
}

}  // namespace AscendC
