#pragma once
// Xor's temporary buffer (CANN's adv_api/math/xor_tiling.h): one 256-byte repeat at least, the
// whole input at most.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t xor_min() { return 256; }
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    uint32_t inputSize = 1;
    for (const int64_t dim : srcShape.GetDims()) inputSize *= static_cast<uint32_t>(dim);
    minValue = canopy::adv::sizes::xor_min();
    maxValue = std::max(inputSize * typeSize, minValue);
}

inline void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuf = 0;
}

}  // namespace AscendC
