#pragma once
// Element-wise instructions on registers: unary, binary, binary with a scalar, the fused forms,
// Duplicate, Move, Compare / Compares / Select and Arange. Each computes the whole register into a
// fixed-size array (one loop the compiler vectorizes) and blends it into the destination under the
// mask: unselected elements are zeroed (MaskMergeMode::ZEROING, the default) or kept (MERGING).
// half and bfloat16_t compute in float and round once, as the memory-based API does.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "canopy/kernel/ascendc/reg/mask.h"

namespace canopy::kernel::ascendc::reg {

template <typename T>
inline constexpr bool is_narrow_float = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <typename T>
inline constexpr bool is_float = std::is_floating_point_v<T> || is_narrow_float<T>;

// The type an element computes in.
template <typename T>
using Wide = std::conditional_t<is_narrow_float<T>, float, T>;
template <typename T>
inline Wide<T> widen(T value) {
    return static_cast<Wide<T>>(value);
}

// Whether a merge mode (a MaskMergeMode, or a pointer to one of the SpecificMode structs) merges.
template <auto mode>
constexpr bool merges() {
    if constexpr (std::is_same_v<decltype(mode), AscendC::Reg::MaskMergeMode>) {
        return mode == AscendC::Reg::MaskMergeMode::MERGING;
    } else {
        return mode->mrgMode == AscendC::Reg::MaskMergeMode::MERGING;
    }
}

// dst = f(i) for the selected elements, under `merging`.
template <bool merging, typename U, typename F>
inline void elementwise(U& dst, const Mask& mask, F&& f) {
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    Lane result[count];
    for (int i = 0; i < count; ++i) result[i] = static_cast<Lane>(f(i));
    blend<merging, count, RegInfo<U>::mask_stride>(lanes(dst), result, mask);
}

template <typename Given, typename U>
constexpr void check_element() {
    static_assert(element_matches<Given, U>, "the element type T given to a Reg instruction is its register's");
}

// An integer quotient: the vector unit does not trap, a zero divisor gives all ones (as the scalar
// unit's division, kernel_passes.cpp) and the one overflowing quotient wraps.
template <typename T>
inline T divide(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        if (b == 0) return T(~T(0));
        if constexpr (std::is_signed_v<T>) {
            if (b == T(-1)) return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a));
        }
        return T(a / b);
    } else {
        return a / b;
    }
}

}  // namespace canopy::kernel::ascendc::reg

#define CANOPY_REG_UNARY(name, expression)                                                                  \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>                     \
    __aicore__ inline void name(U& dstReg, U& srcReg, MaskReg& mask) {                                      \
        using namespace canopy::kernel::ascendc::reg;                                                       \
        check_element<T, U>();                                                                              \
        using Lane = typename RegInfo<U>::Lane;                                                             \
        const Lane* a = lanes(srcReg);                                                                      \
        elementwise<merges<mode>()>(dstReg, mask, [&](int i) {                                              \
            const auto x = widen(a[i]);                                                                     \
            using W = decltype(x);                                                                          \
            static_cast<void>(sizeof(W));                                                                   \
            return expression;                                                                              \
        });                                                                                                 \
    }

#define CANOPY_REG_BINARY(name, expression)                                                                 \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>                     \
    __aicore__ inline void name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {                         \
        using namespace canopy::kernel::ascendc::reg;                                                       \
        check_element<T, U>();                                                                              \
        using Lane = typename RegInfo<U>::Lane;                                                             \
        const Lane* a = lanes(srcReg0);                                                                     \
        const Lane* b = lanes(srcReg1);                                                                     \
        elementwise<merges<mode>()>(dstReg, mask, [&](int i) {                                              \
            const auto x = widen(a[i]);                                                                     \
            const auto y = widen(b[i]);                                                                     \
            using W = decltype(x);                                                                          \
            static_cast<void>(sizeof(W));                                                                   \
            return expression;                                                                              \
        });                                                                                                 \
    }

#define CANOPY_REG_BINARY_SCALAR(name, expression)                                                          \
    template <typename T = DefaultType, typename Scalar, MaskMergeMode mode = MaskMergeMode::ZEROING,      \
              typename S>                                                                                   \
    __aicore__ inline void name(S& dstReg, S& srcReg, Scalar scalarValue, MaskReg& mask) {                  \
        using namespace canopy::kernel::ascendc::reg;                                                       \
        check_element<T, S>();                                                                              \
        using Lane = typename RegInfo<S>::Lane;                                                             \
        const Lane* a = lanes(srcReg);                                                                      \
        const auto y = widen(static_cast<Lane>(scalarValue));                                               \
        elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {                              \
            const auto x = widen(a[i]);                                                                     \
            using W = decltype(x);                                                                          \
            static_cast<void>(sizeof(W));                                                                   \
            return expression;                                                                              \
        });                                                                                                 \
    }

namespace AscendC {
namespace Reg {

CANOPY_REG_UNARY(Relu, x > W(0) ? x : W(0))
CANOPY_REG_UNARY(Exp, W(std::exp(x)))
CANOPY_REG_UNARY(Sqrt, W(std::sqrt(x)))
CANOPY_REG_UNARY(Ln, W(std::log(x)))
CANOPY_REG_UNARY(Log, W(std::log(x)))
CANOPY_REG_UNARY(Log2, W(std::log2(x)))
CANOPY_REG_UNARY(Log10, W(std::log10(x)))
CANOPY_REG_UNARY(Neg, W(-x))

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void Abs(U& dstReg, U& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    check_element<T, U>();
    const auto* a = lanes(srcReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {
        const auto x = widen(a[i]);
        return x < decltype(x)(0) ? decltype(x)(-x) : x;
    });
}
// The absolute value of a signed register into a register of another element type (an int8_t
// register's into a uint8_t one: -128 fits).
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V>
__aicore__ inline void Abs(S& dstReg, V& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(RegInfo<S>::lanes == RegInfo<V>::lanes, "Abs converts between registers of one element width");
    const auto* a = lanes(srcReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {
        const int64_t x = int64_t(a[i]);
        return x < 0 ? -x : x;
    });
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void Not(U& dstReg, U& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(std::is_integral_v<typename RegInfo<U>::Lane>, "Not inverts the bits of integer registers");
    const auto* a = lanes(srcReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return ~a[i]; });
}

CANOPY_REG_BINARY(Add, W(x + y))
CANOPY_REG_BINARY(Sub, W(x - y))
CANOPY_REG_BINARY(Mul, W(x * y))
CANOPY_REG_BINARY(Div, divide<W>(x, y))
CANOPY_REG_BINARY(Max, x > y ? x : y)
CANOPY_REG_BINARY(Min, x < y ? x : y)
CANOPY_REG_BINARY(Prelu, x > W(0) ? x : W(x * y))
CANOPY_REG_BINARY(AbsSub, x > y ? W(x - y) : W(y - x))

#define CANOPY_REG_BITWISE(name, op)                                                                         \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>             \
    __aicore__ inline void name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {                          \
        using namespace canopy::kernel::ascendc::reg;                                                        \
        static_assert(std::is_integral_v<typename RegInfo<U>::Lane>, #name " combines integer registers");   \
        const auto* a = lanes(srcReg0);                                                                      \
        const auto* b = lanes(srcReg1);                                                                      \
        elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return a[i] op b[i]; });      \
    }
CANOPY_REG_BITWISE(And, &)
CANOPY_REG_BITWISE(Or, |)
CANOPY_REG_BITWISE(Xor, ^)
#undef CANOPY_REG_BITWISE

// Shifts by the per-element counts of srcReg1 (a negative count shifts the other way; a count of
// the width or more shifts everything out, an arithmetic right shift leaving the sign).
template <typename Lane, typename Count>
inline Lane shift_left(Lane value, Count count) {
    using Unsigned = std::make_unsigned_t<Lane>;
    const int64_t n = int64_t(count);
    constexpr int64_t width = 8 * sizeof(Lane);
    if (n < 0) {
        if (-n >= width) return std::is_signed_v<Lane> && value < 0 ? Lane(-1) : Lane(0);
        return Lane(value >> -n);
    }
    return n >= width ? Lane(0) : Lane(Unsigned(value) << n);
}

template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V>
__aicore__ inline void ShiftLeft(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return shift_left(a[i], b[i]); });
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V>
__aicore__ inline void ShiftRight(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return shift_left(a[i], -int64_t(b[i])); });
}

CANOPY_REG_BINARY_SCALAR(Adds, W(x + y))
CANOPY_REG_BINARY_SCALAR(Muls, W(x * y))
CANOPY_REG_BINARY_SCALAR(Maxs, x > y ? x : y)
CANOPY_REG_BINARY_SCALAR(Mins, x < y ? x : y)
CANOPY_REG_BINARY_SCALAR(LeakyRelu, x > W(0) ? x : W(x * y))
CANOPY_REG_BINARY_SCALAR(ShiftLefts, shift_left(x, y))
CANOPY_REG_BINARY_SCALAR(ShiftRights, shift_left(x, -int64_t(y)))

// dst = src0 * src1 + dst.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void MulAddDst(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    const auto* d = lanes(dstReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return widen(a[i]) * widen(b[i]) + widen(d[i]); });
}
// dst = dst * src0 + src1.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void MulDstAdd(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    const auto* d = lanes(dstReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return widen(d[i]) * widen(a[i]) + widen(b[i]); });
}
// dst = src * scalar + dst.
template <typename T = DefaultType, typename Scalar, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
__aicore__ inline void Axpy(S& dstReg, S& srcReg, const Scalar scalarValue, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    const auto* a = lanes(srcReg);
    const auto* d = lanes(dstReg);
    const auto y = widen(static_cast<Lane>(scalarValue));
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return widen(a[i]) * y + widen(d[i]); });
}

// The full product of 32-bit integers: its low word into dst0, its high word into dst1.
template <typename T = DefaultType, typename U>
__aicore__ inline void Mull(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    static_assert(std::is_integral_v<Lane> && sizeof(Lane) == 4, "Mull multiplies int32_t or uint32_t registers");
    using Wide64 = std::conditional_t<std::is_signed_v<Lane>, int64_t, uint64_t>;
    const Lane* a = lanes(srcReg0);
    const Lane* b = lanes(srcReg1);
    Wide64 product[RegInfo<U>::lanes];
    for (int i = 0; i < RegInfo<U>::lanes; ++i) product[i] = Wide64(a[i]) * Wide64(b[i]);
    elementwise<false>(dstReg0, mask, [&](int i) { return Lane(uint64_t(product[i])); });
    elementwise<false>(dstReg1, mask, [&](int i) { return Lane(uint64_t(product[i]) >> 32); });
}

}  // namespace Reg
}  // namespace AscendC

namespace canopy::kernel::ascendc::reg {

// Add or subtract unsigned words with a carry (borrow: "no borrow" is a set carry, as CANN defines
// it) per element; the carries out set every mask bit of the element.
template <bool subtract, typename U>
inline void add_with_carry(Mask& carry, U& dst, const U& src0, const U& src1, const Mask* carry_in, const Mask& mask) {
    using Lane = typename RegInfo<U>::Lane;
    static_assert(std::is_integral_v<Lane> && sizeof(Lane) == 4, "the carry forms compute int32_t / uint32_t registers");
    constexpr int stride = RegInfo<U>::mask_stride;
    const Lane* a = lanes(src0);
    const Lane* b = lanes(src1);
    Mask out{};
    elementwise<false>(dst, mask, [&](int i) {
        const uint64_t in = carry_in == nullptr ? (subtract ? 1 : 0) : (bit(*carry_in, i * stride) ? 1 : 0);
        const uint64_t x = uint32_t(a[i]);
        const uint64_t y = uint32_t(b[i]);
        const uint64_t sum = subtract ? x + (~y & 0xffffffffu) + in : x + y + in;
        if (bit(mask, i * stride) && (sum >> 32) != 0) {
            for (int k = i * stride; k < (i + 1) * stride; ++k) set_bit(out, k, true);
        }
        return Lane(uint32_t(sum));
    });
    carry = out;
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, typename U>
__aicore__ inline void AddC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask) {
    canopy::kernel::ascendc::reg::add_with_carry<false>(carry, dstReg, srcReg0, srcReg1, &carrySrc, mask);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void SubC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask) {
    canopy::kernel::ascendc::reg::add_with_carry<true>(carry, dstReg, srcReg0, srcReg1, &carrySrc, mask);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void Add(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {
    canopy::kernel::ascendc::reg::add_with_carry<false>(carry, dstReg, srcReg0, srcReg1, nullptr, mask);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void Sub(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {
    canopy::kernel::ascendc::reg::add_with_carry<true>(carry, dstReg, srcReg0, srcReg1, nullptr, mask);
}

// e^(src0 - src1); a half register's elements are taken in float, those of the RegLayout's half
// (ZERO: the even elements, ONE: the odd ones) giving the float register.
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void ExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    if constexpr (RegInfo<S>::lanes == RegInfo<V>::lanes) {
        elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {
            return std::exp(float(widen(a[i])) - float(widen(b[i])));
        });
    } else {
        static_assert(RegInfo<V>::lanes == 2 * RegInfo<S>::lanes, "ExpSub widens half into float");
        constexpr int part = layout == RegLayout::ONE ? 1 : 0;
        elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {
            return std::exp(float(a[2 * i + part]) - float(b[2 * i + part]));
        });
    }
}

// dst(half) = src(float) * scalar rounded half-away-from-zero, into the RegLayout's half of dst.
template <typename T0 = DefaultType, typename T1 = DefaultType, typename T2, RegLayout layout = RegLayout::ZERO,
          typename T3, typename T4>
__aicore__ inline void MulsCast(T3& dstReg, T4& srcReg, T2 scalarValue, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Out = typename RegInfo<T3>::Lane;
    static_assert(RegInfo<T3>::lanes == 2 * RegInfo<T4>::lanes, "MulsCast narrows float into half");
    constexpr int part = layout == RegLayout::ONE ? 1 : 0;
    const auto* a = lanes(srcReg);
    Out* out = lanes(dstReg);
    for (int i = 0; i < RegInfo<T4>::lanes; ++i) {
        const bool on = bit(mask, i * RegInfo<T4>::mask_stride);
        out[2 * i + part] = on ? Out(float(a[i]) * float(scalarValue)) : Out(0.0f);
        out[2 * i + 1 - part] = Out(0.0f);
    }
}

// Duplicate: a scalar into every element (or the selected ones), or src's lowest (highest) element
// into the selected ones.
template <typename T = DefaultType, typename Scalar, typename S>
__aicore__ inline void Duplicate(S& dstReg, Scalar scalarValue) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    const Lane value = static_cast<Lane>(scalarValue);
    Lane* out = lanes(dstReg);
    for (int i = 0; i < RegInfo<S>::lanes; ++i) out[i] = value;
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename Scalar, typename S,
          std::enable_if_t<!canopy::kernel::ascendc::reg::is_reg_tensor<Scalar>::value, int> = 0>
__aicore__ inline void Duplicate(S& dstReg, Scalar scalarValue, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    const Lane value = static_cast<Lane>(scalarValue);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int) { return value; });
}
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
__aicore__ inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto value = lanes(srcReg)[pos == HighLowPart::LOWEST ? 0 : RegInfo<S>::lanes - 1];
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int) { return value; });
}

// Move: src into dst where mask selects (merging by default: the rest of dst stays).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
__aicore__ inline void Move(U& dstReg, U& srcReg, MaskReg mask) {
    using namespace canopy::kernel::ascendc::reg;
    const auto* a = lanes(srcReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) { return a[i]; });
}
template <typename T = DefaultType, typename U,
          std::enable_if_t<canopy::kernel::ascendc::reg::is_reg_tensor<U>::value, int> = 0>
__aicore__ inline void Move(U& dstReg, U& srcReg) {
    dstReg = srcReg;
}

// The elements of src0 and src1 alternately: the first half of the sequence in dst0, the second in
// dst1; DeInterleave undoes it.
template <typename T = DefaultType, typename U,
          std::enable_if_t<canopy::kernel::ascendc::reg::is_reg_tensor<U>::value, int> = 0>
__aicore__ inline void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    Lane merged[2 * count];
    for (int i = 0; i < count; ++i) {
        merged[2 * i] = lanes(srcReg0)[i];
        merged[2 * i + 1] = lanes(srcReg1)[i];
    }
    std::memcpy(static_cast<void*>(lanes(dstReg0)), merged, sizeof(Lane) * count);
    std::memcpy(static_cast<void*>(lanes(dstReg1)), merged + count, sizeof(Lane) * count);
}
template <typename T = DefaultType, typename U,
          std::enable_if_t<canopy::kernel::ascendc::reg::is_reg_tensor<U>::value, int> = 0>
__aicore__ inline void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    Lane merged[2 * count];
    std::memcpy(static_cast<void*>(merged), lanes(srcReg0), sizeof(Lane) * count);
    std::memcpy(static_cast<void*>(merged + count), lanes(srcReg1), sizeof(Lane) * count);
    for (int i = 0; i < count; ++i) {
        lanes(dstReg0)[i] = merged[2 * i];
        lanes(dstReg1)[i] = merged[2 * i + 1];
    }
}

// Compare: dst selects the elements where the comparison holds (among those mask selects).
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
__aicore__ inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = RegInfo<U>::mask_stride;
    const auto* a = lanes(srcReg0);
    const auto* b = lanes(srcReg1);
    const MaskReg selected = mask;
    dst = elements_where(stride, [&](int i) {
        if (!bit(selected, i * stride)) return false;
        const auto x = widen(a[i]);
        const auto y = widen(b[i]);
        switch (mode) {
            case CMPMODE::LT: return x < y;
            case CMPMODE::GT: return x > y;
            case CMPMODE::EQ: return x == y;
            case CMPMODE::LE: return x <= y;
            case CMPMODE::GE: return x >= y;
            case CMPMODE::NE: return x != y;
        }
        return false;
    });
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__aicore__ inline void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    U scalar;
    Duplicate(scalar, scalarValue);
    Compare<T, mode>(dst, srcReg, scalar, mask);
}
// Select: src0 where mask selects, src1 elsewhere.
template <typename T = DefaultType, typename U,
          std::enable_if_t<canopy::kernel::ascendc::reg::is_reg_tensor<U>::value, int> = 0>
__aicore__ inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    constexpr int count = RegInfo<U>::lanes;
    bool selected[count];
    selection<count, RegInfo<U>::mask_stride>(mask, selected);
    const Lane* a = lanes(srcReg0);
    const Lane* b = lanes(srcReg1);
    Lane result[count];
    for (int i = 0; i < count; ++i) result[i] = selected[i] ? a[i] : b[i];
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
}

// Arange: scalar, scalar + 1, ... (or scalar, scalar - 1, ...).
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename Scalar, typename S>
__aicore__ inline void Arange(S& dstReg, Scalar scalarValue) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    Lane* out = lanes(dstReg);
    const auto start = widen(static_cast<Lane>(scalarValue));
    for (int i = 0; i < RegInfo<S>::lanes; ++i) {
        out[i] = static_cast<Lane>(order == IndexOrder::INCREASE_ORDER ? start + decltype(start)(i) : start - decltype(start)(i));
    }
}

}  // namespace Reg
}  // namespace AscendC

#undef CANOPY_REG_UNARY
#undef CANOPY_REG_BINARY
#undef CANOPY_REG_BINARY_SCALAR
