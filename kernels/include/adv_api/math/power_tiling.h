#pragma once
// Power's temporary buffer (CANN's adv_api/math/power_tiling.h), with the A2's (dav-2201) live node
// counts: tensor^tensor 4 (float), 14 (half), 6 (int32); tensor^scalar and scalar^tensor 5, 14, 7.
// Float and half add one 256-byte repeat; half's nodes are half-width. A shape of one dimension of
// 1 stands for a scalar.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t power_nodes(bool tensorTensor, bool typeIsInt, uint32_t typeSize) {
    if (typeIsInt) return tensorTensor ? 6 : 7;
    if (typeSize == sizeof(float)) return tensorTensor ? 4 : 5;
    return 14;
}
inline constexpr uint32_t power_min(bool tensorTensor, bool typeIsInt, uint32_t typeSize) {
    const uint32_t nodes = power_nodes(tensorTensor, typeIsInt, typeSize);
    if (typeIsInt) return 256 * nodes;
    if (typeSize == sizeof(float)) return 256 * nodes + 256;
    return 256 * nodes / 2 + 256;
}
inline constexpr uint32_t power_max(uint32_t inputSize, bool tensorTensor, bool typeIsInt, uint32_t typeSize) {
    const uint32_t nodes = power_nodes(tensorTensor, typeIsInt, typeSize);
    const uint32_t per_node = typeSize == sizeof(float) ? std::max<uint32_t>(inputSize * typeSize, 256)
                                                        : std::max<uint32_t>(inputSize * typeSize, 128);
    return per_node * nodes + (typeIsInt ? 0 : 256);
}
inline bool shape_is_tensor(const AscendC::TensorShape& shape) {
    return !(shape.GetDimNum() == 1 && shape.GetDim(0) == 1);
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)isReuseSource;
    namespace sizes = canopy::adv::sizes;
    const bool baseIsTensor = sizes::shape_is_tensor(srcShape1);
    const bool expIsTensor = sizes::shape_is_tensor(srcShape2);
    const int64_t elements = baseIsTensor ? srcShape1.GetShapeSize() : srcShape2.GetShapeSize();
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(elements, 0));
    minValue = sizes::power_min(baseIsTensor && expIsTensor, typeIsInt, typeSize);
    maxValue = sizes::power_max(inputSize, baseIsTensor && expIsTensor, typeIsInt, typeSize);
}

inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    maxLiveNodeCount = canopy::adv::sizes::power_nodes(baseIsTensor && expIsTensor, typeIsInt, typeSize);
    extraBuffer = typeIsInt ? 0 : 256;
}

}  // namespace AscendC
