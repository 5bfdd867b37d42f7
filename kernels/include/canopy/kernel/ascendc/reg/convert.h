#pragma once
// Conversions between registers (Cast with its CastTrait, Truncate, Pack / UnPack), reductions
// (Reduce and its Sum / Max / Min forms, ReduceDataBlock, PairReduceElem), Histograms, Squeeze /
// Unsqueeze, the in-register Gather, and the VF's barriers and special registers.
//
// A Cast between element types of different widths reads or writes one lane of every group of
// wider-over-narrower lanes: the group's lane the RegLayout names (ZERO: the first, ONE: the second,
// ...). The mask selects source elements (CANN's MaskReg "Cast" section); the destination lanes
// outside the layout's are zeroed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "canopy/kernel/ascendc/printf.h"
#include "canopy/kernel/ascendc/reg/arithmetic.h"

namespace canopy::kernel::ascendc::reg {

// x rounded to an integral value by `mode` (CAST_NONE and UNKNOWN round to nearest, ties to even).
inline double round_integral(double x, AscendC::RoundMode mode) {
    switch (mode) {
        case AscendC::RoundMode::CAST_FLOOR: return std::floor(x);
        case AscendC::RoundMode::CAST_CEIL: return std::ceil(x);
        case AscendC::RoundMode::CAST_ROUND: return std::round(x);
        case AscendC::RoundMode::CAST_TRUNC: return std::trunc(x);
        default: return std::nearbyint(x);
    }
}

// The neighbouring narrow float (half, bfloat16_t) toward +inf (`up`) or -inf.
template <typename Narrow>
inline Narrow step(Narrow value, bool up) {
    uint16_t bits;
    std::memcpy(&bits, &value, 2);
    const float f = float(value);
    if (f == 0.0f) bits = up ? 0x0001 : 0x8001;
    else bits = uint16_t((f > 0) == up ? bits + 1 : bits - 1);
    std::memcpy(&value, &bits, 2);
    return value;
}

// x as a narrow float, rounded by `mode` (nearest-even by default) from its two neighbours.
template <typename Narrow>
inline Narrow round_narrow(double x, AscendC::RoundMode mode) {
    const Narrow nearest = Narrow(float(x));
    const double value = double(float(nearest));
    if (std::isnan(x) || std::isinf(x) || value == x) return nearest;
    const Narrow below = value < x ? nearest : step(nearest, false);
    const Narrow above = value > x ? nearest : step(nearest, true);
    switch (mode) {
        case AscendC::RoundMode::CAST_FLOOR: return below;
        case AscendC::RoundMode::CAST_CEIL: return above;
        case AscendC::RoundMode::CAST_TRUNC: return x > 0 ? below : above;
        case AscendC::RoundMode::CAST_ROUND: {
            const double to_below = x - double(float(below));
            const double to_above = double(float(above)) - x;
            if (to_below != to_above) return to_below < to_above ? below : above;
            return x > 0 ? above : below;
        }
        default: return nearest;
    }
}

// One element converted to To as CastTrait `trait` says.
template <typename To, typename From>
inline To convert(From from, AscendC::RoundMode mode, AscendC::Reg::SatMode sat) {
    const double x = double(widen(from));
    if constexpr (std::is_integral_v<To>) {
        double value = is_float<From> ? round_integral(x, mode) : x;
        if constexpr (is_float<From>) {
            if (std::isnan(value)) return To(0);
        }
        const bool saturate = sat != AscendC::Reg::SatMode::NO_SAT;
        constexpr double low = double(std::numeric_limits<To>::lowest());
        constexpr double high = double(std::numeric_limits<To>::max());
        if (saturate || is_float<From>) {
            if (value <= low) return std::numeric_limits<To>::lowest();
            if (value >= high) return std::numeric_limits<To>::max();
            return To(value);
        }
        return To(static_cast<std::make_unsigned_t<To>>(static_cast<uint64_t>(static_cast<int64_t>(from))));
    } else if constexpr (is_narrow_float<To>) {
        To value = round_narrow<To>(x, mode);
        if (sat == AscendC::Reg::SatMode::SAT && std::isinf(float(value)) && !std::isinf(x)) {
            value = x > 0 ? std::numeric_limits<To>::max() : std::numeric_limits<To>::lowest();
        }
        return value;
    } else {
        return To(x);
    }
}

template <const AscendC::Reg::CastTrait& trait>
inline constexpr int layout_part = trait.layoutMode == AscendC::Reg::RegLayout::ONE     ? 1
                                   : trait.layoutMode == AscendC::Reg::RegLayout::TWO   ? 2
                                   : trait.layoutMode == AscendC::Reg::RegLayout::THREE ? 3
                                                                                         : 0;

template <typename U>
inline double reduce_identity(AscendC::ReduceType type) {
    using Lane = typename RegInfo<U>::Lane;
    if (type == AscendC::ReduceType::SUM) return 0;
    if constexpr (is_float<Lane>) return type == AscendC::ReduceType::MAX ? -INFINITY : INFINITY;
    return type == AscendC::ReduceType::MAX ? double(std::numeric_limits<Lane>::lowest())
                                            : double(std::numeric_limits<Lane>::max());
}

// The reduction of the selected elements [first, first + count) of src.
template <typename V>
inline double reduce_range(const V& src, const Mask& mask, AscendC::ReduceType type, int first, int count) {
    const auto* a = lanes(src);
    double result = reduce_identity<V>(type);
    for (int i = first; i < first + count; ++i) {
        if (!bit(mask, i * RegInfo<V>::mask_stride)) continue;
        const double x = double(widen(a[i]));
        result = type == AscendC::ReduceType::SUM ? result + x
                 : type == AscendC::ReduceType::MAX ? std::max(result, x)
                                                     : std::min(result, x);
    }
    return result;
}

// `values` into the first lanes of dst, the rest zeroed (or kept when merging).
template <bool merging, typename S>
inline void write_low(S& dst, const double* values, int count) {
    using Lane = typename RegInfo<S>::Lane;
    Lane* out = lanes(dst);
    for (int i = 0; i < RegInfo<S>::lanes; ++i) {
        if (i < count) out[i] = static_cast<Lane>(values[i]);
        else if (!merging) out[i] = Lane(0);
    }
}

}  // namespace canopy::kernel::ascendc::reg

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename S, typename V>
__aicore__ inline void Cast(S& dstReg, V& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using To = typename RegInfo<S>::Lane;
    using From = typename RegInfo<V>::Lane;
    constexpr int to_lanes = RegInfo<S>::lanes;
    constexpr int from_lanes = RegInfo<V>::lanes;
    constexpr int part = layout_part<trait>;
    constexpr int from_stride = RegInfo<V>::mask_stride;
    const From* a = lanes(srcReg);
    To result[to_lanes] = {};
    To* out = lanes(dstReg);
    const bool merging = trait.mrgMode == MaskMergeMode::MERGING;
    if constexpr (to_lanes == from_lanes) {
        for (int i = 0; i < to_lanes; ++i) {
            result[i] = bit(mask, i * from_stride) ? convert<To>(a[i], trait.roundMode, trait.satMode)
                                                   : (merging ? out[i] : To(0));
        }
    } else if constexpr (to_lanes < from_lanes) {
        constexpr int group = from_lanes / to_lanes;  // widening: one source lane of each group
        static_assert(part < group, "the CastTrait's RegLayout names a lane the widening does not have");
        for (int i = 0; i < to_lanes; ++i) {
            const int from = group * i + part;
            result[i] = bit(mask, from * from_stride) ? convert<To>(a[from], trait.roundMode, trait.satMode)
                                                      : (merging ? out[i] : To(0));
        }
    } else {
        constexpr int group = to_lanes / from_lanes;  // narrowing: into one lane of each group
        static_assert(part < group, "the CastTrait's RegLayout names a lane the narrowing does not have");
        for (int i = 0; i < to_lanes; ++i) result[i] = merging ? out[i] : To(0);
        for (int i = 0; i < from_lanes; ++i) {
            if (bit(mask, i * from_stride)) result[group * i + part] = convert<To>(a[i], trait.roundMode, trait.satMode);
        }
    }
    std::memcpy(static_cast<void*>(out), result, sizeof result);
}

// Each float element rounded to an integral value of the same type.
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
__aicore__ inline void Truncate(S& dstReg, S& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    static_assert(is_float<Lane>, "Truncate rounds half, bfloat16_t and float registers");
    const Lane* a = lanes(srcReg);
    elementwise<mode == MaskMergeMode::MERGING>(dstReg, mask, [&](int i) {
        return static_cast<Lane>(float(round_integral(double(widen(a[i])), roundMode)));
    });
}

// Pack: the low half of each element of src, consecutively into the LOWEST or HIGHEST half of dst
// (the other half zeroed). UnPack: the LOWEST or HIGHEST half of src's elements widened into dst
// (sign-extended for signed types).
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void Pack(S& dstReg, V& srcReg) {
    using namespace canopy::kernel::ascendc::reg;
    using To = typename RegInfo<S>::Lane;
    static_assert(RegInfo<S>::lanes == 2 * RegInfo<V>::lanes, "Pack halves the element width");
    const auto* a = lanes(srcReg);
    To result[RegInfo<S>::lanes] = {};
    const int base = part == HighLowPart::HIGHEST ? RegInfo<V>::lanes : 0;
    for (int i = 0; i < RegInfo<V>::lanes; ++i) result[base + i] = To(a[i]);
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
}
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void UnPack(S& dstReg, V& srcReg) {
    using namespace canopy::kernel::ascendc::reg;
    using To = typename RegInfo<S>::Lane;
    static_assert(2 * RegInfo<S>::lanes == RegInfo<V>::lanes, "UnPack doubles the element width");
    const auto* a = lanes(srcReg);
    To result[RegInfo<S>::lanes];
    const int base = part == HighLowPart::HIGHEST ? RegInfo<S>::lanes : 0;
    for (int i = 0; i < RegInfo<S>::lanes; ++i) result[i] = To(a[base + i]);
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
}

// Reduce: the selected elements of src summed (or their maximum, minimum) into dst's first lane.
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void Reduce(S& dstReg, V srcReg, MaskReg mask) {
    using namespace canopy::kernel::ascendc::reg;
    const double value = reduce_range(srcReg, mask, type, 0, RegInfo<V>::lanes);
    write_low<mode == MaskMergeMode::MERGING>(dstReg, &value, 1);
}
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          typename V>
__aicore__ inline void ReduceSum(S& dstReg, V srcReg, MaskReg mask) {
    Reduce<ReduceType::SUM, T, U, mode>(dstReg, srcReg, mask);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void ReduceMax(U& dstReg, U srcReg, MaskReg mask) {
    Reduce<ReduceType::MAX, T, T, mode>(dstReg, srcReg, mask);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void ReduceMin(U& dstReg, U srcReg, MaskReg mask) {
    Reduce<ReduceType::MIN, T, T, mode>(dstReg, srcReg, mask);
}

// ReduceDataBlock: each 32-byte block of src reduced, the eight results in dst's first lanes.
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void ReduceDataBlock(S& dstReg, V srcReg, MaskReg mask) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int blocks = vl_bytes / block_bytes;
    constexpr int per_block = RegInfo<V>::lanes / blocks;
    double values[blocks];
    for (int b = 0; b < blocks; ++b) values[b] = reduce_range(srcReg, mask, type, b * per_block, per_block);
    write_low<mode == MaskMergeMode::MERGING>(dstReg, values, blocks);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void ReduceSumWithDataBlock(U& dstReg, U srcReg, MaskReg mask) {
    ReduceDataBlock<ReduceType::SUM, T, T, mode>(dstReg, srcReg, mask);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void ReduceMaxWithDataBlock(U& dstReg, U srcReg, MaskReg mask) {
    ReduceDataBlock<ReduceType::MAX, T, T, mode>(dstReg, srcReg, mask);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void ReduceMinWithDataBlock(U& dstReg, U srcReg, MaskReg mask) {
    ReduceDataBlock<ReduceType::MIN, T, T, mode>(dstReg, srcReg, mask);
}

// PairReduceElem: the sums of neighbouring pairs of selected elements in dst's low half.
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
__aicore__ inline void PairReduceElem(U& dstReg, U srcReg, MaskReg mask) {
    using namespace canopy::kernel::ascendc::reg;
    constexpr int half_lanes = RegInfo<U>::lanes / 2;
    double values[half_lanes];
    for (int i = 0; i < half_lanes; ++i) values[i] = reduce_range(srcReg, mask, ReduceType::SUM, 2 * i, 2);
    write_low<mode == MaskMergeMode::MERGING>(dstReg, values, half_lanes);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void PairReduceSum(U& dstReg, U srcReg, MaskReg mask) {
    PairReduceElem<PairReduce::SUM, T, mode>(dstReg, srcReg, mask);
}

// Histograms of a uint8_t register into a uint16_t one: BIN0 counts the values 0..127, BIN1 the
// values 128..255, added to what dst holds; ACCUMULATE counts the values up to each bin.
template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode, HistogramsType type, typename S,
          typename V>
__aicore__ inline void Histograms(V& dstReg, S& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    static_assert(std::is_same_v<typename RegInfo<S>::Lane, uint8_t> && std::is_same_v<typename RegInfo<V>::Lane, uint16_t>,
                  "Histograms counts a uint8_t register into a uint16_t one");
    static_assert(mode == HistogramsBinType::BIN0 || mode == HistogramsBinType::BIN1,
                  "Histograms on uint8_t counts the BIN0 (0..127) or BIN1 (128..255) range");
    const int first = mode == HistogramsBinType::BIN1 ? 128 : 0;
    uint32_t counts[128] = {};
    const uint8_t* a = lanes(srcReg);
    for (int i = 0; i < RegInfo<S>::lanes; ++i) {
        if (bit(mask, i) && a[i] >= first && a[i] < first + 128) ++counts[a[i] - first];
    }
    uint16_t* out = lanes(dstReg);
    uint32_t running = 0;
    for (int b = 0; b < 128; ++b) {
        running += counts[b];
        out[b] = uint16_t(out[b] + (type == HistogramsType::ACCUMULATE ? running : counts[b]));
    }
}

// Squeeze: the selected elements of src packed to dst's low lanes, the rest zeroed; STORE_REG hands
// the bytes kept to the AR form of StoreUnAlign, which stores them at the AR offset.
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
__aicore__ inline void Squeeze(U& dstReg, U& srcReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    Lane result[RegInfo<U>::lanes] = {};
    const Lane* a = lanes(srcReg);
    int kept = 0;
    for (int i = 0; i < RegInfo<U>::lanes; ++i) {
        if (bit(mask, i * RegInfo<U>::mask_stride)) result[kept++] = a[i];
    }
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
    if constexpr (store == GatherMaskMode::STORE_REG) session("Reg::Squeeze").squeezed = int64_t(kept) * sizeof(Lane);
}

// Unsqueeze: dst[i] is the number of selected elements before i (the last element's bit ignored).
template <typename T = DefaultType, typename U>
__aicore__ inline void Unsqueeze(U& dstReg, MaskReg& mask) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<U>::Lane;
    Lane* out = lanes(dstReg);
    int64_t count = 0;
    for (int i = 0; i < RegInfo<U>::lanes; ++i) {
        out[i] = Lane(count);
        if (bit(mask, i * RegInfo<U>::mask_stride)) ++count;
    }
}

// In-register Gather: dst[i] = src[index[i] % lanes].
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V,
          std::enable_if_t<canopy::kernel::ascendc::reg::is_reg_tensor<S>::value, int> = 0>
__aicore__ inline void Gather(S& dstReg, S& srcReg, V& indexReg) {
    using namespace canopy::kernel::ascendc::reg;
    using Lane = typename RegInfo<S>::Lane;
    static_assert(sizeof(typename RegInfo<V>::Lane) == sizeof(Lane), "Gather's indices have the elements' width");
    constexpr int count = RegInfo<S>::lanes;
    Lane result[count];
    const Lane* a = lanes(srcReg);
    const auto* idx = lanes(indexReg);
    for (int i = 0; i < count; ++i) result[i] = a[uint64_t(idx[i]) % count];
    std::memcpy(static_cast<void*>(lanes(dstReg)), result, sizeof result);
}

template <SpecialPurposeReg spr>
__aicore__ inline void ClearSpr() {
    static_assert(spr == SpecialPurposeReg::AR, "ClearSpr resets the AR register");
    canopy::kernel::ascendc::reg::VfSession& vf = canopy::kernel::ascendc::reg::session("Reg::ClearSpr");
    vf.ar = 0;
    vf.squeezed = -1;
}

// Orders the VF's accesses of the `src` kind before those of the `dst` kind. A CPU runs a VF's
// loads and stores one after another in program order, which is every order the barrier can ask for.
template <MemType src, MemType dst>
__aicore__ inline void LocalMemBar() {
    canopy::kernel::ascendc::reg::session("Reg::LocalMemBar");
}

template <typename T, const RegTrait& regTrait>
void RegTensor<T, regTrait>::Print() const {
    using namespace canopy::kernel::ascendc::reg;
    std::string line;
    const auto* a = &reg[0].lane[0];
    for (int i = 0; i < RegInfo<RegTensor>::lanes; ++i) {
        if (i > 0) line += ' ';
        if constexpr (is_float<T>) line += std::to_string(double(widen(a[i])));
        else line += std::to_string(int64_t(a[i]));
    }
    AscendC::printf("%s\n", line.c_str());
}

}  // namespace Reg
}  // namespace AscendC
