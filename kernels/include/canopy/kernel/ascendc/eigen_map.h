#pragma once
// How the vector unit is modelled: a tile of the UB seen as an Eigen array (Eigen::Map, no copy), so
// each vector instruction is one vectorised Eigen expression. Narrow floats (half, bfloat16) are
// computed in float and rounded once when stored, which is what the NPU's vector unit does for them.
#include <cfenv>
#include <cstdint>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/half.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel::ascendc {

template <typename T>
struct compute_precision {
    using type = T;
};
template <>
struct compute_precision<Half> {
    using type = float;
};
template <>
struct compute_precision<Eigen::bfloat16> {
    using type = float;
};
// The type a vector instruction on T elements computes in.
template <typename T>
using compute_t = typename compute_precision<T>::type;

template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

template <typename T>
constexpr bool is_float_like = std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                               std::is_same_v<T, Eigen::bfloat16>;

template <typename T>
constexpr bool is_narrow_float = std::is_same_v<T, half> || std::is_same_v<T, Eigen::bfloat16>;

// Narrow floats are computed in float, so an overflow in the final rounding to T raises no IEEE
// flag of the CPU's: on a stream with overflow detection it is raised here, for the launcher to
// find (aclrtSetStreamOverflowSwitch). Called before the results are stored: `exact` may read
// the elements they overwrite.
template <typename T, typename Exact>
inline void flag_narrowing_overflow(const Exact& exact) {
    if constexpr (is_narrow_float<T>) {
        if (!canopy::kernel::current_block().detects_overflow) return;
        const auto wide = exact.template cast<float>();
        if ((wide.template cast<T>().template cast<float>().isInf() && wide.isFinite()).any())
            std::feraiseexcept(FE_OVERFLOW);
    }
}

// In the saturation mode of the block's stream (aclrtSetDeviceSatMode), as CANN documents it, a
// float result that is infinite becomes the type's largest finite value (with its sign) and NaN
// becomes 0. Applied to `length` results at `data` once they are written.
template <typename T>
inline void saturate_results(T* data, int64_t length) {
    if constexpr (is_float_like<T>) {
        if (!canopy::kernel::current_block().saturates) return;
        using Compute = compute_t<T>;
        const auto highest = static_cast<Compute>(Eigen::NumTraits<T>::highest());
        ArrayMap<T> results(data, length);
        const auto values = results.template cast<Compute>();
        results = values.isNaN().select(Compute(0), values.max(-highest).min(highest)).template cast<T>();
    }
}

// The first `count` elements of `tensor` as an array to write.
template <typename T>
inline ArrayMap<T> writable(const AscendC::LocalTensor<T>& tensor, int64_t count) {
    return ArrayMap<T>(tensor.address(), count);
}

// The first `count` elements of `tensor`, read in compute precision.
template <typename T>
inline auto readable(const AscendC::LocalTensor<T>& tensor, int64_t count) {
    return ConstArrayMap<T>(tensor.address(), count).template cast<compute_t<T>>();
}

// Stores a compute-precision expression into `length` elements at `data`: rounded to T, checked
// for an overflow of that rounding, saturated in the saturation mode.
template <typename T, typename Expression>
inline void store_elements(T* data, int64_t length, const Expression& value) {
    flag_narrowing_overflow<T>(value);
    ArrayMap<T>(data, length) = value.template cast<T>();
    saturate_results(data, length);
}

// Stores a compute-precision expression into the first `count` elements of `dst`.
template <typename T, typename Expression>
inline void store(const AscendC::LocalTensor<T>& dst, int64_t count, const Expression& value) {
    store_elements(dst.address(), count, value);
}

}  // namespace canopy::kernel::ascendc
