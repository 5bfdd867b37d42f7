#pragma once
// How the vector unit is modelled: a tile of the UB seen as an Eigen array (Eigen::Map, no copy), so
// each vector instruction is one vectorised Eigen expression. Narrow floats (half, bfloat16) are
// computed in float and rounded once when stored, which is what the NPU's vector unit does for them.
#include <cstdint>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/half.h"
#include "canopy/kernel/ascendc/local_tensor.h"

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

// The first `count` elements of `tensor` as an array to write.
template <typename T>
inline ArrayMap<T> writable(const AscendC::LocalTensor<T>& tensor, int64_t count) {
    return ArrayMap<T>(tensor.GetPhyAddr(), count);
}

// The first `count` elements of `tensor`, read in compute precision.
template <typename T>
inline auto readable(const AscendC::LocalTensor<T>& tensor, int64_t count) {
    return ConstArrayMap<T>(tensor.GetPhyAddr(), count).template cast<compute_t<T>>();
}

// Stores a compute-precision expression into the first `count` elements of `dst`.
template <typename T, typename Expression>
inline void store(const AscendC::LocalTensor<T>& dst, int64_t count, const Expression& value) {
    writable(dst, count) = value.template cast<T>();
}

}  // namespace canopy::kernel::ascendc
