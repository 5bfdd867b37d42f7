#pragma once
// The one table of the advanced API's element-wise operators whose temporary buffer is a number of
// "live nodes": copies of the input (or of its float form), each at least one 256-byte repeat. CANN
// gives each of them its own Get<Op>MaxMinTmpSize / Get<Op>TmpBufferFactorSize with its own two
// constants (impl/adv_api/tiling/...); here the constants are a row of the table and the functions
// one implementation, which the operators' tiling headers call under CANN's names and the kernels
// use to check the buffer they are given.
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::live_nodes {

struct Operator {
    const char* max_min_api;  // CANN's Get<Op>MaxMinTmpSize, named in error messages
    uint32_t float_nodes;
    uint32_t half_nodes;
};

// Half-typed inputs are computed in float, so they need more nodes than float ones.
inline constexpr Operator ceil{"GetCeilMaxMinTmpSize", 1, 2};
inline constexpr Operator trunc{"GetTruncMaxMinTmpSize", 1, 2};
inline constexpr Operator frac{"GetFracMaxMinTmpSize", 0, 4};
inline constexpr Operator erf{"GetErfMaxMinTmpSize", 3, 8};
// Fmod runs Trunc on the quotient: Trunc's nodes, plus six for half's float copies.
inline constexpr Operator fmod{"GetFmodMaxMinTmpSize", trunc.float_nodes, trunc.half_nodes + 6};
inline constexpr Operator geglu{"GetGeGLUMaxMinTmpSize", 0, 4};
inline constexpr Operator swiglu{"GetSwiGLUMaxMinTmpSize", 0, 6};

inline constexpr uint32_t repeat_bytes = 256;

inline constexpr uint32_t nodes(const Operator& op, uint32_t typeSize) {
    return typeSize == sizeof(float) ? op.float_nodes : op.half_nodes;
}
// The smallest buffer the operator runs with (one repeat per node).
inline constexpr uint32_t min_bytes(const Operator& op, uint32_t typeSize) {
    return nodes(op, typeSize) * repeat_bytes;
}
// The buffer that holds every node of `inputSize` elements at once.
inline constexpr uint32_t max_bytes(const Operator& op, uint32_t inputSize, uint32_t typeSize) {
    return nodes(op, typeSize) * std::max(inputSize * typeSize, repeat_bytes);
}

// Get<Op>MaxMinTmpSize: an empty shape is refused as CANN's ASCENDC_HOST_ASSERT does (the outputs
// stay as they are).
inline void max_min(const Operator& op, const AscendC::TensorShape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                    uint32_t& minValue) {
    const int64_t inputSize = srcShape.GetShapeSize();
    if (!host_check(inputSize > 0, op.max_min_api, "Input Shape size must be greater than 0.")) return;
    minValue = min_bytes(op, typeSize);
    maxValue = max_bytes(op, static_cast<uint32_t>(inputSize), typeSize);
}

// Get<Op>TmpBufferFactorSize.
inline void factor(const Operator& op, uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    extraBuf = 0;
    maxLiveNodeCount = nodes(op, typeSize);
}

}  // namespace canopy::adv::live_nodes
