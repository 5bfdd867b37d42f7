#pragma once
// Mask registers: made from a pattern (CreateMask), from a remaining element count (UpdateMask), from
// a register's bits (MaskGenWithRegTensor) or from the memory-based API's mask register (MoveMask);
// combined bit by bit (Not, And, Or, Xor, Select, Move) and rearranged (Interleave, DeInterleave,
// Pack, UnPack). A mask is 256 bits: see registers.h for how elements map to bits.
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/reg/modes.h"
#include "canopy/kernel/ascendc/reg/registers.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace canopy::kernel::ascendc::reg {

// Mask bits per element of T in a register of `trait` (a b64 pair is masked as b32).
template <typename T, const AscendC::Reg::RegTrait& trait>
inline constexpr int mask_stride_of = sizeof(T) == 8 && trait.REG_NUM == 2 ? 4 : int(sizeof(T));

template <typename T>
inline constexpr int element_stride = std::is_same_v<T, AscendC::Reg::DefaultType> ? 1 : int(sizeof(T));

// Element bit i of `mask` for elements of `stride` bits, as a dense sequence of bits.
inline bool element(const Mask& mask, int i, int stride) { return bit(mask, i * stride); }
inline void set_element(Mask& mask, int i, int stride, bool on) {
    for (int k = i * stride; k < (i + 1) * stride; ++k) set_bit(mask, k, on);
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg UpdateMask(uint32_t& scalarValue) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = mask_stride_of<T, regTrait>;
    constexpr uint32_t lanes = vl_bytes / stride;
    const MaskReg mask = leading(int(scalarValue < lanes ? scalarValue : lanes), stride);
    scalarValue = scalarValue < lanes ? 0 : scalarValue - lanes;
    return mask;
}

template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg CreateMask() {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = mask_stride_of<T, regTrait>;
    constexpr int lanes = vl_bytes / stride;
    switch (mode) {
        case MaskPattern::ALL: return leading(lanes, stride);
        case MaskPattern::VL1: return leading(1, stride);
        case MaskPattern::VL2: return leading(2, stride);
        case MaskPattern::VL3: return leading(3, stride);
        case MaskPattern::VL4: return leading(4, stride);
        case MaskPattern::VL8: return leading(8, stride);
        case MaskPattern::VL16: return leading(16, stride);
        case MaskPattern::VL32: return leading(32, stride);
        case MaskPattern::VL64: return leading(64, stride);
        case MaskPattern::VL128: return leading(128, stride);
        case MaskPattern::M3: return elements_where(stride, [](int i) { return i % 3 == 0; });
        case MaskPattern::M4: return elements_where(stride, [](int i) { return i % 4 == 0; });
        case MaskPattern::H: return leading(lanes / 2, stride);
        case MaskPattern::Q: return leading(lanes / 4, stride);
        case MaskPattern::ALLF: return leading(0, stride);
    }
    return leading(0, stride);
}

// dst = ~src, where mask selects (0 elsewhere).
__aicore__ inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) dst.bits[w] = ~src.bits[w] & mask.bits[w];
}
__aicore__ inline void And(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) dst.bits[w] = src0.bits[w] & src1.bits[w] & mask.bits[w];
}
__aicore__ inline void Or(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) dst.bits[w] = (src0.bits[w] | src1.bits[w]) & mask.bits[w];
}
__aicore__ inline void Xor(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) dst.bits[w] = (src0.bits[w] ^ src1.bits[w]) & mask.bits[w];
}
// dst = src0 where mask is set, src1 elsewhere.
__aicore__ inline void Select(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) {
        dst.bits[w] = (src0.bits[w] & mask.bits[w]) | (src1.bits[w] & ~mask.bits[w]);
    }
}
__aicore__ inline void Move(MaskReg& dst, MaskReg& src, MaskReg& mask) {
    for (int w = 0; w < MaskReg::words; ++w) dst.bits[w] = src.bits[w] & mask.bits[w];
}
__aicore__ inline void Move(MaskReg& dst, MaskReg& src) { dst = src; }

// The elements of src0 and src1 (of T) alternately: the first half of the sequence in dst0, the
// second in dst1.
template <typename T>
__aicore__ inline void Interleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = element_stride<T>;
    constexpr int lanes = vl_bytes / stride;
    const MaskReg a = src0, b = src1;
    for (int i = 0; i < lanes; ++i) {
        const int even = 2 * i, odd = 2 * i + 1;
        MaskReg& even_dst = even < lanes ? dst0 : dst1;
        MaskReg& odd_dst = odd < lanes ? dst0 : dst1;
        set_element(even_dst, even % lanes, stride, element(a, i, stride));
        set_element(odd_dst, odd % lanes, stride, element(b, i, stride));
    }
}

// The inverse of Interleave: the even elements of (src0, src1) in dst0, the odd ones in dst1.
template <typename T>
__aicore__ inline void DeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = element_stride<T>;
    constexpr int lanes = vl_bytes / stride;
    const MaskReg a = src0, b = src1;
    for (int i = 0; i < 2 * lanes; ++i) {
        const bool on = element(i < lanes ? a : b, i % lanes, stride);
        set_element(i % 2 == 0 ? dst0 : dst1, i / 2, stride, on);
    }
}

// The even bits of src into the low (LOWEST) or high (HIGHEST) half of dst; the other half cleared.
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void Pack(MaskReg& dst, MaskReg& src) {
    using namespace canopy::kernel::ascendc::reg;
    const MaskReg from = src;
    dst = MaskReg{};
    const int base = part == HighLowPart::HIGHEST ? vl_bytes / 2 : 0;
    for (int i = 0; i < vl_bytes / 2; ++i) set_bit(dst, base + i, bit(from, 2 * i));
}

// The low (LOWEST) or high (HIGHEST) half of src spread to the even bits of dst (odd bits cleared).
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void UnPack(MaskReg& dst, MaskReg& src) {
    using namespace canopy::kernel::ascendc::reg;
    const MaskReg from = src;
    dst = MaskReg{};
    const int base = part == HighLowPart::HIGHEST ? vl_bytes / 2 : 0;
    for (int i = 0; i < vl_bytes / 2; ++i) set_bit(dst, 2 * i, bit(from, base + i));
}

// Data block `offset` of srcReg (16 bytes for b16, 8 bytes for b32) as a mask, each of its bits
// widened to the element's 2 or 4 mask bits.
template <typename T = DefaultType, int16_t offset, typename U>
__aicore__ inline void MaskGenWithRegTensor(MaskReg& dst, U& srcReg) {
    using namespace canopy::kernel::ascendc::reg;
    using E = std::conditional_t<std::is_same_v<T, DefaultType>, typename RegInfo<U>::T, T>;
    constexpr int stride = int(sizeof(E));
    static_assert(stride == 2 || stride == 4, "MaskGenWithRegTensor reads b16 or b32 registers");
    constexpr int chunk = vl_bytes / 8 / stride;  // source bytes that make the 32-byte mask
    static_assert(offset >= 0 && offset < vl_bytes / chunk,
                  "MaskGenWithRegTensor: offset selects one of the register's data blocks (b16: 0..15, b32: 0..31)");
    const auto* bytes = reinterpret_cast<const uint8_t*>(lanes(srcReg)) + offset * chunk;
    MaskReg out{};
    for (int i = 0; i < chunk * 8; ++i) set_element(out, i, stride, (bytes[i / 8] >> (i % 8)) & 1u);
    dst = out;
}

// The memory-based API's mask register {MASK1, MASK0} (SetVectorMask) as a mask of T: b16 reads
// all 128 bits, b32 the 64 of MASK0, each bit widened to the element's mask bits.
template <typename T>
__aicore__ inline MaskReg MoveMask() {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int stride = int(sizeof(T));
    static_assert(stride == 2 || stride == 4, "MoveMask makes b16 or b32 masks");
    const auto& registers = canopy::kernel::ascendc::vector_registers();
    MaskReg out{};
    for (int i = 0; i < vl_bytes / stride; ++i) {
        set_element(out, i, stride, (registers.mask[i / 64] >> (i % 64)) & 1u);
    }
    return out;
}

}  // namespace Reg
}  // namespace AscendC
