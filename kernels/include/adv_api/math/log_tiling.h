#pragma once
// Log, Log2 and Log10's temporary buffers (CANN's adv_api/math/log_tiling.h): Log and Log10 need
// none; Log2 of half works in float (at least one 256-byte repeat).
#include <algorithm>
#include <cstdint>

#include "adv_api/utils/types.h"

namespace canopy::adv::sizes {
inline constexpr uint32_t log2_min(uint32_t typeSize) { return typeSize == 2 ? 256 : 0; }
inline constexpr uint32_t log2_max(uint32_t inputSize, uint32_t typeSize) {
    return typeSize == 2 ? std::max<uint32_t>(inputSize * 4, 256) : 0;
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline void GetLogMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    maxValue = 0;
    minValue = 0;
}
inline void GetLog10MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    GetLogMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetLog2MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const auto inputSize = static_cast<uint32_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
    minValue = canopy::adv::sizes::log2_min(typeSize);
    maxValue = canopy::adv::sizes::log2_max(inputSize, typeSize);
}
inline void GetLogTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)typeSize;
    maxLiveNodeCount = 0;
    extraBuf = 0;
}
inline void GetLog10TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    GetLogTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}
inline void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = typeSize == sizeof(float) ? 0 : 2;
    extraBuf = 0;
}

}  // namespace AscendC
