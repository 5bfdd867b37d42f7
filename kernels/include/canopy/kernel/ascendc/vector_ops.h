#pragma once
// The vector unit's element-wise instructions on UB tiles, in their count form ("Level 2"): the first
// `count` elements of each operand. Every operand must be a UB tensor holding at least `count`
// elements; each instruction is a single Eigen expression over maps of the UB.
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

// A vector instruction's operand: a UB tensor starting on a 32-byte boundary (the vector unit reads
// and writes whole data blocks) with at least `count` elements.
template <typename T>
inline void require_vector_operand(const AscendC::LocalTensor<T>& tensor, int64_t count, const char* api,
                                   const char* role) {
    require_memory(tensor, AscendC::Hardware::UB, api, role);
    require_elements(tensor, count, api, role);
    const auto address = reinterpret_cast<std::uintptr_t>(tensor.GetPhyAddr());
    if (address % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
        fail_misuse(api, role, " starts ", address % AscendC::ONE_BLK_SIZE,
                    " bytes past a 32-byte boundary; vector operands must be 32-byte aligned");
    }
}

template <typename T, typename Operation>
inline void binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                   const AscendC::LocalTensor<T>& src1, int32_t count, Operation operation) {
    require_vector_operand(dst, count, api, "dst");
    require_vector_operand(src0, count, api, "src0");
    require_vector_operand(src1, count, api, "src1");
    store(dst, count, operation(readable(src0, count), readable(src1, count)));
}

template <typename T, typename Operation>
inline void unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  int32_t count, Operation operation) {
    require_vector_operand(dst, count, api, "dst");
    require_vector_operand(src, count, api, "src");
    store(dst, count, operation(readable(src, count)));
}

template <typename T>
constexpr bool is_float_like = std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half> ||
                               std::is_same_v<T, Eigen::bfloat16>;

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// ---- dst = src0 (op) src1 ----------------------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    canopy::kernel::ascendc::binary("Add", dst, src0, src1, count, [](const auto& a, const auto& b) { return a + b; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    canopy::kernel::ascendc::binary("Sub", dst, src0, src1, count, [](const auto& a, const auto& b) { return a - b; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    canopy::kernel::ascendc::binary("Mul", dst, src0, src1, count, [](const auto& a, const auto& b) { return a * b; });
}

// Floating point only, as on the A2 (an integer division by zero would also kill the process).
template <typename T, bool isSetMask = true>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    static_assert(canopy::kernel::ascendc::is_float_like<T>, "Div supports half, bfloat16_t and float");
    canopy::kernel::ascendc::binary("Div", dst, src0, src1, count, [](const auto& a, const auto& b) { return a / b; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    canopy::kernel::ascendc::binary("Max", dst, src0, src1, count,
                                    [](const auto& a, const auto& b) { return a.max(b); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    canopy::kernel::ascendc::binary("Min", dst, src0, src1, count,
                                    [](const auto& a, const auto& b) { return a.min(b); });
}

// ---- dst = src (op) scalar ---------------------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count) {
    const auto scalar = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);
    canopy::kernel::ascendc::unary("Adds", dst, src, count, [scalar](const auto& a) { return a + scalar; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count) {
    const auto scalar = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);
    canopy::kernel::ascendc::unary("Muls", dst, src, count, [scalar](const auto& a) { return a * scalar; });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Maxs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count) {
    const auto scalar = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);
    canopy::kernel::ascendc::unary("Maxs", dst, src, count, [scalar](const auto& a) { return a.max(scalar); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Mins(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                            const int32_t& count) {
    const auto scalar = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);
    canopy::kernel::ascendc::unary("Mins", dst, src, count, [scalar](const auto& a) { return a.min(scalar); });
}

// dst = src >= 0 ? src : src * scalar
template <typename T, bool isSetMask = true>
__aicore__ inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                 const int32_t& count) {
    const auto scalar = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);
    canopy::kernel::ascendc::unary("LeakyRelu", dst, src, count, [scalar](const auto& a) {
        return (a >= decltype(scalar)(0)).select(a, a * scalar);
    });
}

// dst = dst + src * scalar (src may be half while dst is float).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count) {
    using namespace canopy::kernel::ascendc;
    using Compute = compute_t<T>;
    require_vector_operand(dst, count, "Axpy", "dst");
    require_vector_operand(src, count, "Axpy", "src");
    const Compute scalar = static_cast<Compute>(static_cast<compute_t<U>>(scalarValue));
    store(dst, count, readable(dst, count) + readable(src, count).template cast<Compute>() * scalar);
}

// ---- dst = f(src) ------------------------------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Exp", dst, src, count, [](const auto& a) { return a.exp(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Ln(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Ln", dst, src, count, [](const auto& a) { return a.log(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Abs", dst, src, count, [](const auto& a) { return a.abs(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Sqrt", dst, src, count, [](const auto& a) { return a.sqrt(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Rsqrt", dst, src, count, [](const auto& a) { return a.rsqrt(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Reciprocal(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    canopy::kernel::ascendc::unary("Reciprocal", dst, src, count, [](const auto& a) { return a.inverse(); });
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Relu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
    using Compute = canopy::kernel::ascendc::compute_t<T>;
    canopy::kernel::ascendc::unary("Relu", dst, src, count, [](const auto& a) { return a.max(Compute(0)); });
}

// ---- dst = scalar ------------------------------------------------------------------------------

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count) {
    canopy::kernel::ascendc::require_vector_operand(dst, count, "Duplicate", "dst");
    canopy::kernel::ascendc::writable(dst, count).setConstant(scalarValue);
}

}  // namespace AscendC
