#pragma once
// AscendQuant (CANN adv_api/quantization/ascend_quant.h): dst = int8(src * scale + offset), per
// tensor (scalar scale and offset) or per channel (a scale / offset tensor repeated along src).
// On the A2 the computation is in half: float input is cast to half, multiplied by the half scale,
// the half offset added, and the result cast to int8 rounding to nearest even and saturating.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount, const uint32_t scaleCount,
                                const uint32_t workLocalSize)
        : calcCount(calcCount), offsetCount(offsetCount), scaleCount(scaleCount), workLocalSize(workLocalSize) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

}  // namespace AscendC

namespace canopy::adv {

inline int8_t half_to_int8_rint(float value) {
    if (std::isnan(value)) return 0;
    const float rounded = std::nearbyint(value);
    return static_cast<int8_t>(std::clamp(rounded, -128.0f, 127.0f));
}

inline float to_half_precision(float value) { return static_cast<float>(half(value)); }

// dst[i] = int8(half(half(src[i]) * scale(i)) + offset(i)), all in half.
template <typename T, typename Scale, typename Offset>
inline void ascend_quant(const char* api, const AscendC::LocalTensor<int8_t>& dstTensor,
                         const AscendC::LocalTensor<T>& srcTensor, const AscendC::LocalTensor<uint8_t>* tmp,
                         uint32_t calCount, const AscendC::LocalTensor<T>* scaleTensor, uint32_t scaleCount,
                         const AscendC::LocalTensor<T>* offsetTensor, uint32_t offsetCount, Scale scale_of,
                         Offset offset_of) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "AscendQuant supports half and float");
    AdvancedCall call(api);
    const T* src = call.in("srcTensor", srcTensor, calCount);
    int8_t* dst = call.out("dstTensor", dstTensor, calCount);
    const T* scales = nullptr;
    const T* offsets = nullptr;
    if (scaleTensor != nullptr) {
        call.require(scaleCount > 0 && calCount % scaleCount == 0, "calCount ", calCount,
                     " must be a multiple of scaleCount ", scaleCount);
        scales = call.in("scaleTensor", *scaleTensor, scaleCount);
    }
    if (offsetTensor != nullptr) {
        call.require(offsetCount > 0 && calCount % offsetCount == 0, "calCount ", calCount,
                     " must be a multiple of offsetCount ", offsetCount);
        offsets = call.in("offsetTensor", *offsetTensor, offsetCount);
    }
    if (tmp != nullptr) call.tmp("sharedTmpBuffer", *tmp, sizes::ascend_quant_min());
    call.issue();
    for (uint32_t i = 0; i < calCount; ++i) {
        const float x = to_half_precision(static_cast<float>(src[i]));
        const float s = scales ? to_half_precision(static_cast<float>(scales[i % scaleCount])) : scale_of();
        const float o = offsets ? to_half_precision(static_cast<float>(offsets[i % offsetCount])) : offset_of();
        const float scaled = to_half_precision(x * s);
        dst[i] = half_to_int8_rint(to_half_precision(scaled + o));
    }
}

}  // namespace canopy::adv

namespace AscendC {

// Per tensor: scalar scale and offset.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount) {
    const float s = canopy::adv::to_half_precision(scale);
    const float o = canopy::adv::to_half_precision(offset);
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, &sharedTmpBuffer, calCount, nullptr, 0, nullptr, 0, [s] { return s; },
        [o] { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount) {
    const float s = canopy::adv::to_half_precision(scale);
    const float o = canopy::adv::to_half_precision(offset);
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, nullptr, calCount, nullptr, 0, nullptr, 0, [s] { return s; },
        [o] { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize());
}

// Per channel: a scale tensor, a scalar offset.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount) {
    const float o = canopy::adv::to_half_precision(static_cast<float>(offset));
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, &sharedTmpBuffer, calCount, &scaleTensor, scaleCount, nullptr, 0,
        [] { return 0.0f; }, [o] { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount) {
    const float o = canopy::adv::to_half_precision(static_cast<float>(offset));
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, nullptr, calCount, &scaleTensor, scaleCount, nullptr, 0,
        [] { return 0.0f; }, [o] { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                          scaleTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset, scaleTensor.GetSize(),
                                          srcTensor.GetSize());
}

// Per channel: scale and offset tensors.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount) {
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, &sharedTmpBuffer, calCount, &scaleTensor, scaleCount, &offsetTensor,
        offsetCount, [] { return 0.0f; }, [] { return 0.0f; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
    canopy::adv::ascend_quant<T>(
        "AscendQuant", dstTensor, srcTensor, nullptr, calCount, &scaleTensor, scaleCount, &offsetTensor, offsetCount,
        [] { return 0.0f; }, [] { return 0.0f; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor,
                                          scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offsetTensor, scaleTensor.GetSize(),
                                          offsetTensor.GetSize(), srcTensor.GetSize());
}

}  // namespace AscendC
