#pragma once
// Gelu's temporary buffer (CANN's adv_api/activation/gelu_tiling.h): three float working tensors,
// at least one 256-byte repeat each.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t gelu_min() { return 3 * 256; }
inline constexpr uint32_t gelu_max(uint32_t inputSize) { return std::max(3 * inputSize * 4, gelu_min()); }
inline bool gelu_type_ok(const char* function, uint32_t typeSize) {
    return host_check(typeSize == 2 || typeSize == 4, function, "typeSize must be 2 (half) or 4 (float).");
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    (void)srcShape;
    canopy::adv::sizes::gelu_type_ok("GetGeluMinTmpSize", typeSize);
    return canopy::adv::sizes::gelu_min();
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
    canopy::adv::sizes::gelu_type_ok("GetGeluMaxTmpSize", typeSize);
    return canopy::adv::sizes::gelu_max(static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0)));
}
inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

}  // namespace AscendC
