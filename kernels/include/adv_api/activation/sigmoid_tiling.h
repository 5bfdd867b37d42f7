#pragma once
// Sigmoid's temporary buffer (CANN's adv_api/activation/sigmoid_tiling.h): one 256-byte repeat at
// least, the whole input at most.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t sigmoid_min() { return 256; }
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetSigmoidMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
    maxValue = std::max(inputSize * typeSize, canopy::adv::sizes::sigmoid_min());
    minValue = canopy::adv::sizes::sigmoid_min();
}

}  // namespace AscendC
