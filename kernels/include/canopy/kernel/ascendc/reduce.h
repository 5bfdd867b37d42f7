#pragma once
// Whole-tensor reductions in their count form: dst[0] = reduction of src[0, count).
//
// ReduceSum adds the way the A2's count form does ("mode two" in the Ascend C documentation): the
// source is cut into repeats of 256 bytes (64 floats, 128 halves); inside a repeat the elements are
// added as a binary tree of adjacent pairs (d0+d1, d2+d3, ..., then the same on the sums), and the
// repeats' sums are then added in order. Every partial sum is rounded to T, as the vector unit
// stores it. Tests compare against a golden computed in exactly this order.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_ops.h"

namespace canopy::kernel::ascendc {

// Elements of T one vector repeat (256 bytes) covers.
template <typename T>
inline constexpr int64_t repeat_elements = AscendC::ONE_REPEAT_BYTE_SIZE / sizeof(T);

// Adjacent-pair tree sum of `count` (at most one repeat of) elements, partial sums rounded to T.
template <typename T>
inline T repeat_tree_sum(const T* values, int64_t count) {
    using Compute = compute_t<T>;
    using Pairs = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>, 0, Eigen::InnerStride<2>>;
    constexpr int64_t kRepeat = repeat_elements<T>;
    std::array<T, kRepeat / 2 + 1> level_a;
    std::array<T, kRepeat / 2 + 1> level_b;
    const T* current = values;
    T* next = level_a.data();
    while (count > 1) {
        const int64_t pairs = count / 2;
        Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(next, pairs) =
            (Pairs(current, pairs).template cast<Compute>() + Pairs(current + 1, pairs).template cast<Compute>())
                .template cast<T>();
        if (count % 2 != 0) next[pairs] = current[count - 1];  // an odd last element moves up unchanged
        count = pairs + count % 2;
        current = next;
        next = (next == level_a.data()) ? level_b.data() : level_a.data();
    }
    return current[0];
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count) {
    using namespace canopy::kernel::ascendc;
    require_vector_operand(dst, 1, "ReduceSum", "dst");
    require_vector_operand(src, count, "ReduceSum", "src");
    // The NPU keeps per-repeat partial sums in sharedTmpBuffer; here they stay on the stack.
    require_memory(sharedTmpBuffer, Hardware::UB, "ReduceSum", "sharedTmpBuffer");
    constexpr int64_t kRepeat = repeat_elements<T>;
    const T* values = src.GetPhyAddr();
    T total = T(0);
    for (int64_t first = 0; first < count; first += kRepeat) {
        const T repeat_sum = repeat_tree_sum(values + first, std::min<int64_t>(kRepeat, count - first));
        total = first == 0 ? repeat_sum : T(compute_t<T>(total) + compute_t<T>(repeat_sum));
    }
    dst.SetValue(0, total);
}

namespace canopy_detail {

// dst[0] = the extreme value; with calIndex, dst[1] holds its (first) index as an integer bit pattern.
template <bool kMax, typename T>
inline void reduce_extreme(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<T>& sharedTmpBuffer, int32_t count, bool calIndex) {
    using namespace canopy::kernel::ascendc;
    require_vector_operand(dst, calIndex ? 2 : 1, api, "dst");
    require_vector_operand(src, count, api, "src");
    require_memory(sharedTmpBuffer, Hardware::UB, api, "sharedTmpBuffer");
    if (count <= 0) [[unlikely]] fail_misuse(api, "count ", count, " must be at least 1");
    Eigen::Index index = 0;
    const auto values = readable(src, count);
    const compute_t<T> extreme = kMax ? values.maxCoeff(&index) : values.minCoeff(&index);
    dst.SetValue(0, static_cast<T>(extreme));
    if (calIndex) {
        // The index is written as an unsigned integer of T's width into the second element.
        T index_bits{};
        if constexpr (sizeof(T) == 2) {
            const uint16_t narrow = static_cast<uint16_t>(index);
            std::memcpy(static_cast<void*>(&index_bits), &narrow, sizeof(T));
        } else {
            const uint32_t wide = static_cast<uint32_t>(index);
            std::memcpy(static_cast<void*>(&index_bits), &wide, sizeof(T) < sizeof(wide) ? sizeof(T) : sizeof(wide));
        }
        dst.SetValue(1, index_bits);
    }
}

}  // namespace canopy_detail

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0) {
    canopy_detail::reduce_extreme<true>("ReduceMax", dst, src, sharedTmpBuffer, count, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0) {
    canopy_detail::reduce_extreme<false>("ReduceMin", dst, src, sharedTmpBuffer, count, calIndex);
}

}  // namespace AscendC
