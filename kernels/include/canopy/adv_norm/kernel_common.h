#pragma once
// What the kernel side of the normalization, quantization, reduce, sort, index, filter, select,
// pad and transpose APIs is built from: UB tensors, the advanced call (its operands checked and
// reported to the pipe model), Eigen maps and the compute precision of narrow floats.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/adv_call.h"
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/half.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace canopy::adv_norm {

using canopy::kernel::ascendc::AdvancedCall;
using canopy::kernel::ascendc::compute_t;

// Element `i` of `data` in compute precision.
template <typename T>
inline compute_t<T> load(const T* data, int64_t i) {
    return static_cast<compute_t<T>>(data[i]);
}

// Rounds a compute-precision value to T.
template <typename T, typename V>
inline T narrow(V value) {
    return static_cast<T>(value);
}

template <typename T>
using Rows = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                        Eigen::OuterStride<>>;
template <typename T>
using ConstRows = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                             Eigen::OuterStride<>>;

// `rows` rows of `cols` elements, `stride` elements apart.
template <typename T>
inline Rows<T> rows(T* data, int64_t rows, int64_t cols, int64_t stride) {
    return Rows<T>(data, rows, cols, Eigen::OuterStride<>(stride));
}
template <typename T>
inline ConstRows<T> rows(const T* data, int64_t rows, int64_t cols, int64_t stride) {
    return ConstRows<T>(data, rows, cols, Eigen::OuterStride<>(stride));
}

// Elements of T in 32 bytes.
template <typename T>
inline constexpr uint32_t block_elems = 32 / sizeof(T);

}  // namespace canopy::adv_norm
