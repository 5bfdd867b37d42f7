#pragma once
// LogSoftMax's host functions (CANN's adv_api/activation/logsoftmax_tiling.h): SoftMax's temporary
// buffer and tiling rules.
#include <cstdint>
#include <cstring>

#include "adv_api/activation/softmax_tiling.h"

namespace AscendC {

inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
    canopy::adv::sizes::softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling) {
    canopy::adv::sizes::softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

}  // namespace AscendC
