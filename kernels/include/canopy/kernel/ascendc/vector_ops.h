#pragma once
// The vector unit's element-wise instructions on UB tiles, in their three forms: the count form
// (the first `count` elements of each operand), and the high-dimensional forms with a mask (a bit
// mask, or the number of leading elements of each repeat), repeatTime and repeat parameters
// (block and repeat strides). Every form is one VectorInstruction (vector_unit.h): its operands
// are checked against their allocations and each run of active elements is one Eigen expression.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_unit.h"
#include "canopy/kernel/deferred_moves.h"

namespace canopy::kernel::ascendc {

// `length` elements at `data`, read in compute precision.
template <typename T>
inline auto read_run(const T* data, int64_t length) {
    return ConstArrayMap<T>(data, length).template cast<compute_t<T>>();
}

inline Strides dst_strides(const AscendC::BinaryRepeatParams& params) {
    return {params.dstBlkStride, params.dstRepStride};
}
inline Strides src0_strides(const AscendC::BinaryRepeatParams& params) {
    return {params.src0BlkStride, params.src0RepStride};
}
inline Strides src1_strides(const AscendC::BinaryRepeatParams& params) {
    return {params.src1BlkStride, params.src1RepStride};
}
inline Strides dst_strides(const AscendC::UnaryRepeatParams& params) {
    return {params.dstBlkStride, params.dstRepStride};
}
inline Strides src_strides(const AscendC::UnaryRepeatParams& params) {
    return {params.srcBlkStride, params.srcRepStride};
}

// A recorded binary instruction computing `count` elements (deferred_moves.h).
template <typename T, typename Operation>
void compute_deferred_binary(void* dst, const void* a, const void* b, int64_t count, const void* operation) {
    const Operation& compute = *std::launder(static_cast<const Operation*>(operation));
    store_elements(static_cast<T*>(dst), count,
                   compute(read_run(static_cast<const T*>(a), count), read_run(static_cast<const T*>(b), count)));
}

// When both sources of a contiguous binary instruction are GM -> UB copies MTE2 has not landed, the
// instruction is recorded over their GM bytes instead of run (deferred_moves.h); true then.
template <typename T, typename Operation>
inline bool defer_binary(VectorInstruction& instruction, T* dst, const T* src0, const T* src1,
                         const Operation& operation) {
    if constexpr (!std::is_trivially_copyable_v<Operation> || sizeof(Operation) > deferred_operation_bytes ||
                  alignof(Operation) > alignof(std::max_align_t)) {
        return false;
    } else {
        if (deferred_move_count == 0) return false;
        const int64_t count = instruction.contiguous_elements();
        if (count <= 0) return false;
        const uint64_t bytes = uint64_t(count) * sizeof(T);
        const void* a = deferred_source(src0, bytes);
        const void* b = a ? deferred_source(src1, bytes) : nullptr;
        if (!b) return false;
        instruction.issue_deferred();
        defer_elementwise(dst, count, sizeof(T), &compute_deferred_binary<T, Operation>, a, b, &operation,
                          sizeof(Operation));
        return true;
    }
}

// dst = operation(src0, src1) over the instruction's active elements.
template <typename T, typename Operation>
inline void binary_instruction(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                               const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                               const AscendC::BinaryRepeatParams& params, Operation operation) {
    instruction.require_dst_block_stride(params.dstBlkStride);
    const auto a = instruction.operand("src0", Access::read, src0, src0_strides(params));
    const auto b = instruction.operand("src1", Access::read, src1, src1_strides(params));
    const auto out = instruction.operand("dst", Access::write, dst, dst_strides(params));
    if (defer_binary(instruction, out.base, a.base, b.base, operation)) return;
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        store_elements(out.at(repeat, slot), length,
                  operation(read_run(a.at(repeat, slot), length), read_run(b.at(repeat, slot), length)));
    });
}

// dst = operation(src) over the instruction's active elements.
template <typename T, typename Operation>
inline void unary_instruction(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src, const AscendC::UnaryRepeatParams& params,
                              Operation operation) {
    instruction.require_dst_block_stride(params.dstBlkStride);
    const auto in = instruction.operand("src", Access::read, src, src_strides(params));
    const auto out = instruction.operand("dst", Access::write, dst, dst_strides(params));
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        store_elements(out.at(repeat, slot), length, operation(read_run(in.at(repeat, slot), length)));
    });
}

// The instruction of a count-form call: with isSetMask = false the mask register decides (set by
// SetVectorMask, normally in counter mode), as on the NPU.
template <typename T, bool isSetMask>
inline VectorInstruction count_instruction(const char* api, int64_t count) {
    if constexpr (isSetMask) {
        return VectorInstruction::first_elements(api, sizeof(T), count);
    } else {
        return VectorInstruction(api, sizeof(T), (count + repeat_elements<T> - 1) / repeat_elements<T>);
    }
}

// A bitwise operation on integer elements (Eigen has no bitwise array operators).
template <typename Bitwise>
inline auto bitwise(Bitwise bitwise_operation) {
    return [bitwise_operation](const auto& a, const auto& b) {
        using Element = typename std::decay_t<decltype(a)>::Scalar;
        return a.binaryExpr(b, [bitwise_operation](Element x, Element y) {
            return static_cast<Element>(bitwise_operation(x, y));
        });
    };
}

}  // namespace canopy::kernel::ascendc

// The three forms of a binary instruction `name`, computing `expression` of arrays a and b.
#define CANOPY_BINARY_INSTRUCTION(name, requirement, ...)                                                          \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
        requirement;                                                                                               \
        canopy::kernel::ascendc::binary_instruction(                                                              \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src0,  \
            src1, repeatParams, __VA_ARGS__);                                                                      \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {  \
        requirement;                                                                                               \
        canopy::kernel::ascendc::binary_instruction(                                                              \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src0,  \
            src1, repeatParams, __VA_ARGS__);                                                                      \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count) {                                                            \
        requirement;                                                                                               \
        canopy::kernel::ascendc::binary_instruction(                                                              \
            canopy::kernel::ascendc::count_instruction<T, isSetMask>(#name, count), dst, src0, src1,               \
            BinaryRepeatParams{}, __VA_ARGS__);                                                                    \
    }

// The three forms of a unary instruction `name`.
#define CANOPY_UNARY_INSTRUCTION(name, requirement, ...)                                                           \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],             \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                 \
        requirement;                                                                                               \
        canopy::kernel::ascendc::unary_instruction(                                                               \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,   \
            repeatParams, __VA_ARGS__);                                                                            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,               \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                 \
        requirement;                                                                                               \
        canopy::kernel::ascendc::unary_instruction(                                                               \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,   \
            repeatParams, __VA_ARGS__);                                                                            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {      \
        requirement;                                                                                               \
        canopy::kernel::ascendc::unary_instruction(canopy::kernel::ascendc::count_instruction<T, isSetMask>(#name, \
                                                                                                        count),    \
                                                   dst, src, UnaryRepeatParams{}, __VA_ARGS__);                    \
    }

// The three forms of a tensor-scalar instruction `name`; the expression sees the scalar as `s`.
#define CANOPY_SCALAR_INSTRUCTION(name, requirement, ...)                                                          \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,        \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) { \
        requirement;                                                                                               \
        const auto s = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);                            \
        canopy::kernel::ascendc::unary_instruction(                                                               \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,   \
            repeatParams, __VA_ARGS__);                                                                            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,        \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {   \
        requirement;                                                                                               \
        const auto s = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);                            \
        canopy::kernel::ascendc::unary_instruction(                                                               \
            canopy::kernel::ascendc::masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,   \
            repeatParams, __VA_ARGS__);                                                                            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,        \
                                const int32_t& count) {                                                            \
        requirement;                                                                                               \
        const auto s = static_cast<canopy::kernel::ascendc::compute_t<T>>(scalarValue);                            \
        canopy::kernel::ascendc::unary_instruction(canopy::kernel::ascendc::count_instruction<T, isSetMask>(#name, \
                                                                                                        count),    \
                                                   dst, src, UnaryRepeatParams{}, __VA_ARGS__);                    \
    }

namespace AscendC {

// ---- dst = src0 (op) src1 ----------------------------------------------------------------------

CANOPY_BINARY_INSTRUCTION(Add, , [](const auto& a, const auto& b) { return a + b; })
CANOPY_BINARY_INSTRUCTION(Sub, , [](const auto& a, const auto& b) { return a - b; })
CANOPY_BINARY_INSTRUCTION(Mul, , [](const auto& a, const auto& b) { return a * b; })
// Floating point only, as on the A2 (an integer division by zero would also kill the process).
CANOPY_BINARY_INSTRUCTION(Div,
                          static_assert(canopy::kernel::ascendc::is_float_like<T>,
                                        "Div supports half, bfloat16_t and float"),
                          [](const auto& a, const auto& b) { return a / b; })
CANOPY_BINARY_INSTRUCTION(Max, , [](const auto& a, const auto& b) { return a.max(b); })
CANOPY_BINARY_INSTRUCTION(Min, , [](const auto& a, const auto& b) { return a.min(b); })
CANOPY_BINARY_INSTRUCTION(AddRelu, , [](const auto& a, const auto& b) {
    return (a + b).max(typename std::decay_t<decltype(a + b)>::Scalar(0));
})
CANOPY_BINARY_INSTRUCTION(SubRelu, , [](const auto& a, const auto& b) {
    return (a - b).max(typename std::decay_t<decltype(a - b)>::Scalar(0));
})
CANOPY_BINARY_INSTRUCTION(And, static_assert(std::is_integral_v<T>, "And works on integer elements"),
                          canopy::kernel::ascendc::bitwise([](auto x, auto y) { return x & y; }))
CANOPY_BINARY_INSTRUCTION(Or, static_assert(std::is_integral_v<T>, "Or works on integer elements"),
                          canopy::kernel::ascendc::bitwise([](auto x, auto y) { return x | y; }))

// ---- dst = f(src) ------------------------------------------------------------------------------

CANOPY_UNARY_INSTRUCTION(Exp, , [](const auto& a) { return a.exp(); })
CANOPY_UNARY_INSTRUCTION(Ln, , [](const auto& a) { return a.log(); })
CANOPY_UNARY_INSTRUCTION(Abs, , [](const auto& a) { return a.abs(); })
CANOPY_UNARY_INSTRUCTION(Sqrt, , [](const auto& a) { return a.sqrt(); })
CANOPY_UNARY_INSTRUCTION(Rsqrt, , [](const auto& a) { return a.rsqrt(); })
CANOPY_UNARY_INSTRUCTION(Reciprocal, , [](const auto& a) { return a.inverse(); })
CANOPY_UNARY_INSTRUCTION(Relu, , [](const auto& a) {
    return a.max(typename std::decay_t<decltype(a)>::Scalar(0));
})
CANOPY_UNARY_INSTRUCTION(Not, static_assert(std::is_integral_v<T>, "Not works on integer elements"),
                         [](const auto& a) {
                             using Element = typename std::decay_t<decltype(a)>::Scalar;
                             return a.unaryExpr([](Element x) { return static_cast<Element>(~x); });
                         })

// ---- dst = src (op) scalar ---------------------------------------------------------------------

CANOPY_SCALAR_INSTRUCTION(Adds, , [s](const auto& a) { return a + s; })
CANOPY_SCALAR_INSTRUCTION(Muls, , [s](const auto& a) { return a * s; })
CANOPY_SCALAR_INSTRUCTION(Maxs, , [s](const auto& a) { return a.max(s); })
CANOPY_SCALAR_INSTRUCTION(Mins, , [s](const auto& a) { return a.min(s); })
// dst = src >= 0 ? src : src * scalar
CANOPY_SCALAR_INSTRUCTION(LeakyRelu, , [s](const auto& a) { return (a >= decltype(s)(0)).select(a, a * s); })
CANOPY_SCALAR_INSTRUCTION(ShiftLeft, static_assert(std::is_integral_v<T>, "ShiftLeft works on integer elements"),
                          [s](const auto& a) {
                              using Element = typename std::decay_t<decltype(a)>::Scalar;
                              return a.unaryExpr([s](Element x) { return static_cast<Element>(x << s); });
                          })
// Arithmetic for signed elements, logical for unsigned ones (the C++ shift of the element type).
CANOPY_SCALAR_INSTRUCTION(ShiftRight, static_assert(std::is_integral_v<T>, "ShiftRight works on integer elements"),
                          [s](const auto& a) {
                              using Element = typename std::decay_t<decltype(a)>::Scalar;
                              return a.unaryExpr([s](Element x) { return static_cast<Element>(x >> s); });
                          })

#undef CANOPY_BINARY_INSTRUCTION
#undef CANOPY_UNARY_INSTRUCTION
#undef CANOPY_SCALAR_INSTRUCTION

// ---- dst = dst + src * scalar (src may be half while dst is float) -----------------------------

namespace canopy_detail {
template <typename T, typename U>
inline void axpy(canopy::kernel::ascendc::VectorInstruction instruction, const LocalTensor<T>& dst,
                 const LocalTensor<U>& src, const U& scalarValue, const UnaryRepeatParams& params) {
    using namespace canopy::kernel::ascendc;
    using Compute = compute_t<T>;
    instruction.require_dst_block_stride(params.dstBlkStride);
    const auto in = instruction.operand("src", Access::read, src, src_strides(params));
    const auto out = instruction.operand("dst", Access::read_write, dst, dst_strides(params));
    const Compute scalar = static_cast<Compute>(static_cast<compute_t<U>>(scalarValue));
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        T* target = out.at(repeat, slot);
        store_elements(target, length,
                  read_run(target, length) + read_run(in.at(repeat, slot), length).template cast<Compute>() * scalar);
    });
}
}  // namespace canopy_detail

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    constexpr int64_t width = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    canopy_detail::axpy(canopy::kernel::ascendc::masked_instruction<isSetMask>("Axpy", width, mask, repeatTime), dst,
                        src, scalarValue, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    constexpr int64_t width = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    canopy_detail::axpy(canopy::kernel::ascendc::masked_instruction<isSetMask>("Axpy", width, mask, repeatTime), dst,
                        src, scalarValue, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count) {
    constexpr int64_t width = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    // A half src into a float dst moves on 4 blocks a repeat, as many elements as dst's 8 (CANN's
    // dav_c220 AxpyImpl passes DEFAULT_REPEAT_STRIDE / 2).
    UnaryRepeatParams params;
    params.srcRepStride = static_cast<uint8_t>(canopy::kernel::ascendc::repeat_elements<T> * sizeof(U) / ONE_BLK_SIZE);
    canopy_detail::axpy(canopy::kernel::ascendc::VectorInstruction::first_elements("Axpy", width, count), dst, src,
                        scalarValue, params);
}

// ---- dst = src0 * src1 + dst (the sources may be half while dst is float) ----------------------

namespace canopy_detail {
template <typename T, typename U>
inline void mul_add_dst(canopy::kernel::ascendc::VectorInstruction instruction, const LocalTensor<T>& dst,
                        const LocalTensor<U>& src0, const LocalTensor<U>& src1, const BinaryRepeatParams& params) {
    using namespace canopy::kernel::ascendc;
    static_assert((std::is_same_v<T, half> || std::is_same_v<T, float>) &&
                      (std::is_same_v<U, half> || std::is_same_v<U, float>) && sizeof(T) >= sizeof(U),
                  "MulAddDst takes half sources into a half or float dst, or float sources into a float dst");
    using Compute = compute_t<T>;
    instruction.require_dst_block_stride(params.dstBlkStride);
    const auto a = instruction.operand("src0", Access::read, src0, src0_strides(params));
    const auto b = instruction.operand("src1", Access::read, src1, src1_strides(params));
    const auto out = instruction.operand("dst", Access::read_write, dst, dst_strides(params));
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        T* target = out.at(repeat, slot);
        store_elements(target, length,
                       read_run(a.at(repeat, slot), length).template cast<Compute>() *
                               read_run(b.at(repeat, slot), length).template cast<Compute>() +
                           read_run(target, length));
    });
}
}  // namespace canopy_detail

// A repeat holds the elements of a dst repeat: with a float dst, 64 half source elements (4 blocks).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                 const uint64_t mask[], const uint8_t repeatTime,
                                 const BinaryRepeatParams& repeatParams) {
    canopy_detail::mul_add_dst(
        canopy::kernel::ascendc::masked_instruction<isSetMask>("MulAddDst", sizeof(T), mask, repeatTime), dst, src0,
        src1, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                 uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    canopy_detail::mul_add_dst(
        canopy::kernel::ascendc::masked_instruction<isSetMask>("MulAddDst", sizeof(T), mask, repeatTime), dst, src0,
        src1, repeatParams);
}

// The first `count` elements of each operand: the sources' repeats are as long as dst's.
template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                 const int32_t& count) {
    constexpr auto src_repeat_stride =
        static_cast<uint8_t>(canopy::kernel::ascendc::repeat_elements<T> * sizeof(U) / ONE_BLK_SIZE);
    BinaryRepeatParams params;
    params.src0RepStride = params.src1RepStride = src_repeat_stride;
    canopy_detail::mul_add_dst(
        canopy::kernel::ascendc::VectorInstruction::first_elements("MulAddDst", sizeof(T), count), dst, src0, src1,
        params);
}

// ---- dst = scalar ------------------------------------------------------------------------------

namespace canopy_detail {
template <typename T>
inline void duplicate(canopy::kernel::ascendc::VectorInstruction instruction, const LocalTensor<T>& dst,
                      const T& scalarValue, canopy::kernel::ascendc::Strides strides) {
    using namespace canopy::kernel::ascendc;
    instruction.require_dst_block_stride(strides.block);
    const auto out = instruction.operand("dst", Access::write, dst, strides);
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        ArrayMap<T>(out.at(repeat, slot), length).setConstant(scalarValue);
    });
}
}  // namespace canopy_detail

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride) {
    canopy_detail::duplicate(
        canopy::kernel::ascendc::masked_instruction<isSetMask>("Duplicate", sizeof(T), mask, repeatTime), dst,
        scalarValue, {dstBlockStride, dstRepeatStride});
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride) {
    canopy_detail::duplicate(
        canopy::kernel::ascendc::masked_instruction<isSetMask>("Duplicate", sizeof(T), mask, repeatTime), dst,
        scalarValue, {dstBlockStride, dstRepeatStride});
}

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count) {
    canopy_detail::duplicate(canopy::kernel::ascendc::VectorInstruction::first_elements("Duplicate", sizeof(T), count),
                             dst, scalarValue, canopy::kernel::ascendc::contiguous_strides);
}

// dst[i] = firstValue + i over the active elements, i counting every element slot of every repeat.
namespace canopy_detail {
template <typename T>
inline void create_vec_index(canopy::kernel::ascendc::VectorInstruction instruction, const LocalTensor<T>& dst,
                             const T& firstValue, canopy::kernel::ascendc::Strides strides) {
    using namespace canopy::kernel::ascendc;
    instruction.require_dst_block_stride(strides.block);
    const auto out = instruction.operand("dst", Access::write, dst, strides);
    const int64_t per_repeat = instruction.active().per_repeat;
    const auto first = static_cast<compute_t<T>>(firstValue);
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        const auto start = first + static_cast<compute_t<T>>(repeat * per_repeat + slot);
        ArrayMap<T>(out.at(repeat, slot), length) =
            Eigen::Array<compute_t<T>, Eigen::Dynamic, 1>::LinSpaced(length, start,
                                                                    start + static_cast<compute_t<T>>(length - 1))
                .template cast<T>();
    });
}
}  // namespace canopy_detail

template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride) {
    canopy_detail::create_vec_index(
        canopy::kernel::ascendc::masked_instruction<true>("CreateVecIndex", sizeof(T), mask, repeatTime), dst,
        firstValue, {dstBlkStride, dstRepStride});
}

template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride) {
    canopy_detail::create_vec_index(
        canopy::kernel::ascendc::masked_instruction<true>("CreateVecIndex", sizeof(T), mask, repeatTime), dst,
        firstValue, {dstBlkStride, dstRepStride});
}

template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count) {
    canopy_detail::create_vec_index(
        canopy::kernel::ascendc::VectorInstruction::first_elements("CreateVecIndex", sizeof(T), count), dst,
        firstValue, canopy::kernel::ascendc::contiguous_strides);
}

// ---- Copy: UB to UB on the vector pipe, with the vector unit's masks and strides ----------------

struct CopyRepeatParams {
    __aicore__ CopyRepeatParams() {}
    __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                                uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = DEFAULT_BLK_STRIDE;
    uint16_t srcStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace canopy_detail {
template <typename T>
inline void copy(canopy::kernel::ascendc::VectorInstruction instruction, const LocalTensor<T>& dst,
                 const LocalTensor<T>& src, const CopyRepeatParams& params) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy works on 16-bit and 32-bit elements");
    instruction.require_dst_block_stride(params.dstStride);
    const auto in = instruction.operand("src", Access::read, src, {params.srcStride, params.srcRepeatSize});
    const auto out = instruction.operand("dst", Access::write, dst, {params.dstStride, params.dstRepeatSize});
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        ArrayMap<T>(out.at(repeat, slot), length) = ConstArrayMap<T>(in.at(repeat, slot), length);
    });
}
}  // namespace canopy_detail

namespace canopy_detail {
// The high-dimensional Copy in counter mode differs from the other vector instructions: the mask
// register counts the elements of each repeat (not of the whole instruction) and repeatTime counts
// the repeats. A repeat's elements fill ceil(count * sizeof(T) / 32) blocks, which may be more than
// eight, each blockStride blocks after the one before.
template <typename T>
inline void copy_counter_repeats(const LocalTensor<T>& dst, const LocalTensor<T>& src, int64_t repeat_time,
                                 const CopyRepeatParams& params) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy works on 16-bit and 32-bit elements");
    require_vector_tensor(dst, "Copy", "dst");
    require_vector_tensor(src, "Copy", "src");
    if (params.dstStride == 0) [[unlikely]] fail_misuse("Copy", "dstBlkStride 0 is undefined on the vector unit");
    if (repeat_time < 0 || repeat_time > MAX_REPEAT_TIMES) [[unlikely]] {
        fail_misuse("Copy", "repeatTime ", repeat_time, " is outside [0, ", MAX_REPEAT_TIMES, "]");
    }
    const int64_t count = static_cast<int64_t>(vector_registers().mask[0]);
    if (repeat_time == 0 || count == 0) return;
    constexpr int64_t per_block = block_elements<T>;
    const int64_t blocks = (count + per_block - 1) / per_block;
    // Byte offset of element `index` of repeat `repeat` in an operand with these strides.
    auto offset = [](int64_t repeat, int64_t index, int64_t block_stride, int64_t repeat_stride) {
        return (repeat * repeat_stride + (index / per_block) * block_stride) * int64_t(ONE_BLK_SIZE) +
               (index % per_block) * int64_t(sizeof(T));
    };
    auto reach = [&](const LocalTensor<T>& tensor, const char* role, int64_t block_stride, int64_t repeat_stride,
                     Access access) {
        // Strides are unsigned, so the last element of the last repeat is the furthest one.
        const int64_t bytes = offset(repeat_time - 1, count - 1, block_stride, repeat_stride) + int64_t(sizeof(T));
        const uint64_t held = uint64_t(tensor.GetSize()) * sizeof(T);
        if (uint64_t(bytes) > held) [[unlikely]] {
            fail_misuse("Copy", role, " reaches ", bytes, " bytes (counter mode: ", repeat_time, " repeats of ", count,
                        " elements, block stride ", block_stride, ", repeat stride ", repeat_stride, ") but its ",
                        PositionName(tensor.position()), " LocalTensor holds ", held, " bytes");
        }
        return ub_range("Copy", role, access, reinterpret_cast<const std::byte*>(tensor.landed_address()),
                        uint64_t(bytes));
    };
    const canopy::kernel::Operand ranges[2] = {reach(src, "src", params.srcStride, params.srcRepeatSize, Access::read),
                               reach(dst, "dst", params.dstStride, params.dstRepeatSize, Access::write)};
    canopy::kernel::pipe_instruction(canopy::kernel::Pipe::V, "Copy", ranges, 2);
    const auto* in = reinterpret_cast<const std::byte*>(src.landed_address());
    auto* out = reinterpret_cast<std::byte*>(dst.landed_address());
    for (int64_t repeat = 0; repeat < repeat_time; ++repeat) {
        for (int64_t block = 0; block < blocks; ++block) {
            const int64_t first = block * per_block;
            const int64_t length = std::min(per_block, count - first);
            std::memmove(out + offset(repeat, first, params.dstStride, params.dstRepeatSize),
                         in + offset(repeat, first, params.srcStride, params.srcRepeatSize), length * sizeof(T));
        }
    }
}

template <typename T, bool isSetMask, typename Mask>
inline void masked_copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Mask& mask,
                        const uint8_t repeatTime, const CopyRepeatParams& params) {
    using namespace canopy::kernel::ascendc;
    if constexpr (isSetMask) set_instruction_mask(mask, sizeof(T));
    if (vector_registers().counter_mode) {
        copy_counter_repeats(dst, src, repeatTime, params);
    } else {
        copy(VectorInstruction("Copy", sizeof(T), repeatTime), dst, src, params);
    }
}
}  // namespace canopy_detail

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
    canopy_detail::masked_copy<T, isSetMask>(dst, src, mask, repeatTime, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
    canopy_detail::masked_copy<T, isSetMask>(dst, src, mask, repeatTime, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    canopy_detail::copy(canopy::kernel::ascendc::count_instruction<T, isSetMask>("Copy", count), dst, src,
                        CopyRepeatParams{});
}

// ---- Brcb: each of 8 source elements per repeat fills one 32-byte block of dst ------------------

struct BrcbRepeatParams {
    __aicore__ BrcbRepeatParams() {}
    __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb works on 16-bit and 32-bit elements");
    constexpr int64_t per_block = block_elements<T>;
    require_vector_tensor(dst, "Brcb", "dst");
    require_vector_tensor(src, "Brcb", "src");
    if (repeatParams.dstBlkStride == 0) [[unlikely]] fail_misuse("Brcb", "dstBlkStride 0 is undefined on the vector unit");
    if (repeatTime == 0) return;
    const int64_t source_elements = int64_t(repeatTime) * AscendC::DEFAULT_BLK_NUM;
    require_elements(src, source_elements, "Brcb", "src");
    const int64_t reach_blocks = (int64_t(repeatTime) - 1) * repeatParams.dstRepStride +
                                 (AscendC::DEFAULT_BLK_NUM - 1) * repeatParams.dstBlkStride + 1;
    require_elements(dst, reach_blocks * per_block, "Brcb", "dst");
    access_ub("Brcb", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()),
              source_elements * sizeof(T));
    access_ub("Brcb", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()),
              reach_blocks * AscendC::ONE_BLK_SIZE);
    const T* in = src.landed_address();
    for (int64_t repeat = 0; repeat < repeatTime; ++repeat) {
        for (int64_t block = 0; block < AscendC::DEFAULT_BLK_NUM; ++block) {
            T* target = dst.landed_address() +
                        (repeat * repeatParams.dstRepStride + block * repeatParams.dstBlkStride) * per_block;
            ArrayMap<T>(target, per_block).setConstant(in[repeat * AscendC::DEFAULT_BLK_NUM + block]);
        }
    }
}

}  // namespace AscendC
