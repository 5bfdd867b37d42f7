#pragma once
// AscendC::Std's arithmetic (CANN's utils/std/cmath.h): abs and sqrt on the types the NPU's scalar
// unit supports (others fail to compile, as on the NPU), and the integer helpers ceil_division,
// ceil_align and divide.
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "utils/std/type_traits.h"

namespace AscendC {
namespace Std {

template <typename T>
inline T abs(const T src) {
    static_assert(is_one_of<T, int8_t, int16_t, int32_t, float, int64_t>(),
                  "current data type is not supported on current device!");
    if constexpr (std::is_floating_point_v<T>) {
        return std::fabs(src);
    } else {
        return static_cast<T>(src < 0 ? -src : src);
    }
}

template <typename T>
inline T sqrt(const T src) {
    static_assert(is_one_of<T, float, int64_t>(), "current data type is not supported on current device!");
    return static_cast<T>(std::sqrt(src));
}

template <typename T, typename U>
inline constexpr auto ceil_division(const T& num1, const U& num2) {
    return (num1 + num2 - 1) / num2;
}

template <typename T, typename U>
inline constexpr auto ceil_align(const T& num1, const U& num2) {
    return ceil_division(num1, num2) * num2;
}

template <typename T, typename U>
inline constexpr auto divide(const T& num1, const U& num2) {
    return num1 / num2;
}

}  // namespace Std
}  // namespace AscendC
