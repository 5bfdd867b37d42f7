#pragma once
// What the kernel side of the normalization, quantization, reduce, sort, index, filter, select,
// pad and transpose APIs is built from: UB tensors, the advanced call (its operands checked and
// reported to the pipe model) and the compute precision of narrow floats.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "canopy/kernel/ascendc/adv_call.h"
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/half.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace canopy::adv {

using canopy::kernel::ascendc::AdvancedCall;
using canopy::kernel::ascendc::compute_t;

// Elements of T in 32 bytes.
template <typename T>
inline constexpr uint32_t block_elems = 32 / sizeof(T);

}  // namespace canopy::adv
