#pragma once
// Axpy's temporary buffer (CANN's adv_api/math/axpy_tiling.h): none for float; a half source is
// converted to float through four 256-byte live nodes.
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t axpy_nodes(uint32_t typeSize) { return typeSize == sizeof(float) ? 1 : 4; }
inline constexpr uint32_t axpy_min(uint32_t typeSize) { return typeSize == sizeof(float) ? 0 : 4 * 256; }
inline constexpr uint32_t axpy_max(uint32_t inputSize, uint32_t typeSize) {
    if (typeSize == sizeof(float)) return 0;
    return inputSize * typeSize > 256 ? 4 * inputSize * typeSize : 4 * 256;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetAxpyMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!canopy::adv::host_check(inputSize > 0, "GetAxpyMaxMinTmpSize", "Input Shape size must be greater than 0."))
        return;
    minValue = canopy::adv::sizes::axpy_min(typeSize);
    maxValue = canopy::adv::sizes::axpy_max(static_cast<uint32_t>(inputSize), typeSize);
}

inline void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = canopy::adv::sizes::axpy_nodes(typeSize);
}

}  // namespace AscendC
