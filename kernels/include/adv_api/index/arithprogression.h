#pragma once
// Arange / ArithProgression (CANN adv_api/index/arithprogression.h): dst[i] = firstValue + i *
// diffValue for the first `count` elements.
#include "canopy/adv/kernel_common.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
    canopy::adv::AdvancedCall call("Arange");
    call.require(count >= 0, "count ", count, " is negative");
    T* out = call.out("dst", dst, uint64_t(count));
    call.issue();
    using C = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    const C first = static_cast<C>(static_cast<canopy::adv::compute_t<T>>(firstValue));
    const C diff = static_cast<C>(static_cast<canopy::adv::compute_t<T>>(diffValue));
    for (int32_t i = 0; i < count; ++i) {
        out[i] = static_cast<T>(static_cast<canopy::adv::compute_t<T>>(first + C(i) * diff));
    }
}

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                                        const int32_t count) {
    Arange<T>(dstLocal, firstValue, diffValue, count);
}

}  // namespace AscendC
