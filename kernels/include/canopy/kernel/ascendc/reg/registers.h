#pragma once
// The 950's vector registers as a CPU holds them. A vector register is VL (256) bytes of lanes of
// one element type (vector_f32, vector_s16, ...: the compiler's names), kept as a fixed-size array
// so that the compiler vectorizes every operation over it. A mask register (vector_bool, MaskReg) is
// VL / 8 bytes, one bit per byte of a vector register: element i of a b16 register is selected by
// bit 2i, of a b32 register by bit 4i (CANN's MaskReg: only the lowest bit of an element's group
// counts; the APIs that make masks set the whole group). The unaligned register (vector_align) buffers the bytes of an unaligned store that do not
// fill a 32-byte block yet; the address register (vector_address) holds an element offset.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/reg/vf.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc::reg {

template <typename T>
struct alignas(64) Vector {
    static constexpr int lanes = vl_bytes / int(sizeof(T));
    T lane[lanes];
};

// The mask register: bit k selects byte k of a vector register.
struct alignas(32) Mask {
    static constexpr int words = vl_bytes / 64;
    std::uint64_t bits[words];
};

// An unaligned store's pending bytes (at most a 32-byte block) and where they go.
struct Unaligned {
    std::byte* address = nullptr;
    int pending = 0;
    alignas(32) std::byte data[block_bytes];
};

// An element offset kept in an address register by CreateAddrReg.
struct Address {
    std::int64_t offset = 0;  // elements of the type it was created for
};

}  // namespace canopy::kernel::ascendc::reg

using vector_s8 = canopy::kernel::ascendc::reg::Vector<int8_t>;
using vector_u8 = canopy::kernel::ascendc::reg::Vector<uint8_t>;
using vector_s16 = canopy::kernel::ascendc::reg::Vector<int16_t>;
using vector_u16 = canopy::kernel::ascendc::reg::Vector<uint16_t>;
using vector_s32 = canopy::kernel::ascendc::reg::Vector<int32_t>;
using vector_u32 = canopy::kernel::ascendc::reg::Vector<uint32_t>;
using vector_s64 = canopy::kernel::ascendc::reg::Vector<int64_t>;
using vector_u64 = canopy::kernel::ascendc::reg::Vector<uint64_t>;
using vector_f16 = canopy::kernel::ascendc::reg::Vector<half>;
using vector_bf16 = canopy::kernel::ascendc::reg::Vector<bfloat16_t>;
using vector_f32 = canopy::kernel::ascendc::reg::Vector<float>;
using vector_bool = canopy::kernel::ascendc::reg::Mask;
using vector_align = canopy::kernel::ascendc::reg::Unaligned;
using vector_address = canopy::kernel::ascendc::reg::Address;

namespace AscendC {
namespace Reg {

template <typename Element>
struct TypeGet {
    static_assert(std::is_arithmetic_v<Element> || std::is_same_v<Element, half> ||
                      std::is_same_v<Element, bfloat16_t>,
                  "RegTensor holds b8, b16, b32 and b64 integers, half, bfloat16_t and float");
    using T = canopy::kernel::ascendc::reg::Vector<Element>;
};
// bool registers move data only: a byte each, as int8_t (CANN's TypeGet<bool>).
template <>
struct TypeGet<bool> {
    using T = vector_s8;
};

struct RegTrait {
    int REG_NUM = 1;
};

constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    static_assert(regTrait.REG_NUM == 1 || sizeof(T) == 8,
                  "RegTraitNumTwo holds b64 elements only (two registers, 2 * VL bytes)");
    __aicore__ inline RegTensor() {}
    using ActualT = T;
    static constexpr RegTrait trait = regTrait;
    static constexpr int REG_NUM = trait.REG_NUM;
    using RegType = typename TypeGet<T>::T;
    RegType reg[REG_NUM];

    __aicore__ inline operator RegType&() { return reg[0]; }
    // Prints the register's elements (the kernel's printf: one line, the block prefix first).
    void Print() const;
};

using MaskReg = vector_bool;
using UnalignRegForLoad = vector_align;
using UnalignRegForStore = vector_align;
using UnalignReg = vector_align;
using AddrReg = vector_address;

}  // namespace Reg
namespace MicroAPI = Reg;
}  // namespace AscendC

namespace canopy::kernel::ascendc::reg {

template <typename R>
struct is_reg_tensor : std::false_type {};
template <typename T, const AscendC::Reg::RegTrait& trait>
struct is_reg_tensor<AscendC::Reg::RegTensor<T, trait>> : std::true_type {};

// What the Reg instructions need of a register operand U: its element type and count, and how many
// mask bits each element spans (a b64 pair of registers is masked as b32: two registers' elements
// under one mask).
template <typename U>
struct RegInfo {
    static_assert(is_reg_tensor<U>::value, "a Reg instruction's register operand is a RegTensor");
    using T = typename U::ActualT;
    using Lane = std::conditional_t<std::is_same_v<T, bool>, int8_t, T>;
    static constexpr int reg_num = U::REG_NUM;
    static constexpr int lanes = reg_num * vl_bytes / int(sizeof(Lane));
    static constexpr int mask_stride = vl_bytes / lanes;
};

template <typename U>
inline auto* lanes(U& reg) {
    return &reg.reg[0].lane[0];
}
template <typename U>
inline const auto* lanes(const U& reg) {
    return &reg.reg[0].lane[0];
}

// Mask bit k, and the selection of the `count` elements of `stride` mask bits each.
inline bool bit(const Mask& mask, int k) { return (mask.bits[k >> 6] >> (k & 63)) & 1u; }
inline void set_bit(Mask& mask, int k, bool on) {
    const std::uint64_t one = std::uint64_t(1) << (k & 63);
    mask.bits[k >> 6] = on ? (mask.bits[k >> 6] | one) : (mask.bits[k >> 6] & ~one);
}

// The bits of the lowest bit of every `stride`-bit group.
constexpr std::uint64_t element_bits(int stride) {
    std::uint64_t pattern = 0;
    for (int k = 0; k < 64; k += stride) pattern |= std::uint64_t(1) << k;
    return pattern;
}

// Every element of a `stride`-bit register selected.
template <int stride>
inline bool all_selected(const Mask& mask) {
    constexpr std::uint64_t pattern = stride >= 64 ? 1 : element_bits(stride);
    if constexpr (stride > 64) {
        for (int k = 0; k < vl_bytes; k += stride) {
            if (!bit(mask, k)) return false;
        }
        return true;
    } else {
        std::uint64_t missing = 0;
        for (int w = 0; w < Mask::words; ++w) missing |= pattern & ~mask.bits[w];
        return missing == 0;
    }
}

// The selection as one flag per element, for the blends of partial masks.
template <int count, int stride>
inline void selection(const Mask& mask, bool (&selected)[count]) {
    for (int i = 0; i < count; ++i) selected[i] = bit(mask, i * stride);
}

// The mask selecting the first `count` elements of `stride` bits each: every bit of their groups
// set (as CreateMask, UpdateMask and MoveMask set them), the rest cleared.
inline Mask leading(int count, int stride) {
    Mask mask{};
    const int limit = vl_bytes / stride;
    const int bits = (count > limit ? limit : count < 0 ? 0 : count) * stride;
    for (int w = 0; w < Mask::words; ++w) {
        const int in_word = bits - w * 64;
        mask.bits[w] = in_word <= 0 ? 0 : in_word >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << in_word) - 1;
    }
    return mask;
}

// Selects element i of `stride` bits (all bits of its group) when `pick(i)`.
template <typename Pick>
inline Mask elements_where(int stride, Pick pick) {
    Mask mask{};
    for (int i = 0; i * stride < vl_bytes; ++i) {
        if (!pick(i)) continue;
        for (int k = i * stride; k < (i + 1) * stride; ++k) set_bit(mask, k, true);
    }
    return mask;
}

// Writes `result` into `dst` where `mask` selects, and elsewhere 0 (zeroing) or what dst held
// (merging): the blend every masked Reg instruction ends with. A full mask is a plain copy.
template <bool merging, int count, int stride, typename T>
inline void blend(T* dst, const T* result, const Mask& mask) {
    if (all_selected<stride>(mask)) {
        std::memcpy(static_cast<void*>(dst), result, sizeof(T) * count);
        return;
    }
    bool selected[count];
    selection<count, stride>(mask, selected);
    for (int i = 0; i < count; ++i) dst[i] = selected[i] ? result[i] : (merging ? dst[i] : T(0));
}

// The explicit element type a Reg instruction may be given (T = DefaultType: from the register).
template <typename Given, typename U>
inline constexpr bool element_matches = std::is_same_v<Given, AscendC::Reg::DefaultType> ||
                                        std::is_same_v<Given, typename RegInfo<U>::T> ||
                                        sizeof(Given) == sizeof(typename RegInfo<U>::T);

}  // namespace canopy::kernel::ascendc::reg
