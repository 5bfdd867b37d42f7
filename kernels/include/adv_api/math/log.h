#pragma once
// Log, Log2 and Log10 (CANN's adv_api/math/log.h): logarithms to the bases e, 2 and 10; half and
// float, computed in float.
#include <cmath>

#include "adv_api/math/log_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Log supports half and float");
    canopy::adv::unary_elementwise("Log", "GetLogMaxMinTmpSize", dstTensor, srcTensor, nullptr, 0, calCount,
                                   [](const auto& x) { return x.log(); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

CANOPY_ADV_UNARY(Log2, "GetLog2MaxMinTmpSize", canopy::adv::sizes::log2_min(sizeof(T)),
                 canopy::adv::each([](auto v) { return std::log2(v); }))

template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    static_assert(canopy::adv::is_half_or_float<T>, "Log10 supports half and float");
    canopy::adv::unary_elementwise("Log10", "GetLog10MaxMinTmpSize", dstTensor, srcTensor, nullptr, 0, calCount,
                                   [](const auto& x) { return x.log10(); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
