#pragma once
// Cast: element type conversion on UB tiles, in the count and the high-dimensional forms.
//
// Round-to-nearest-even conversions (CAST_NONE, which Ascend C defines as CAST_RINT whenever the
// conversion is inexact, and CAST_RINT) are Eigen casts. The directed modes (floor, ceil, trunc, ties
// away from zero, round to odd) into a float type choose between the two representable neighbours
// of the exact value; into an integer type they apply the rounding function and saturate to the
// type's range (NaN becomes 0), as the vector unit does.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_ops.h"

namespace canopy::kernel::ascendc {

inline const char* round_mode_name(AscendC::RoundMode mode) {
    switch (mode) {
        case AscendC::RoundMode::CAST_NONE: return "CAST_NONE";
        case AscendC::RoundMode::CAST_RINT: return "CAST_RINT";
        case AscendC::RoundMode::CAST_FLOOR: return "CAST_FLOOR";
        case AscendC::RoundMode::CAST_CEIL: return "CAST_CEIL";
        case AscendC::RoundMode::CAST_ROUND: return "CAST_ROUND";
        case AscendC::RoundMode::CAST_TRUNC: return "CAST_TRUNC";
        case AscendC::RoundMode::CAST_ODD: return "CAST_ODD";
        default: return "an unknown RoundMode";
    }
}

// The representable neighbour of `value` one step up (toward +inf) or down.
template <typename Float>
inline Float next_representable(Float value, bool up) {
    if constexpr (std::is_same_v<Float, float>) {
        return std::nextafter(value, up ? std::numeric_limits<float>::infinity()
                                        : -std::numeric_limits<float>::infinity());
    } else {
        uint16_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        const bool negative = (bits & 0x8000u) != 0;
        if ((bits & 0x7fffu) == 0) {
            bits = up ? 0x0001u : 0x8001u;  // from a zero to the smallest subnormal of that side
        } else if (up != negative) {
            ++bits;  // away from zero
        } else {
            --bits;  // toward zero
        }
        Float next;
        std::memcpy(static_cast<void*>(&next), &bits, sizeof(bits));
        return next;
    }
}

template <typename Float>
inline bool lowest_bit_set(Float value) {
    if constexpr (std::is_same_v<Float, float>) {
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        return (bits & 1u) != 0;
    } else {
        uint16_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        return (bits & 1u) != 0;
    }
}

// `exact` (every source type converts to double exactly) rounded into Float with a directed mode.
template <typename Float>
inline Float round_directed(double exact, AscendC::RoundMode mode) {
    const Float nearest = static_cast<Float>(static_cast<float>(exact));
    const double back = static_cast<double>(static_cast<float>(nearest));
    if (back == exact || std::isnan(exact)) return nearest;
    // `exact` lies strictly between two neighbours and `nearest` is one of them.
    const Float other = next_representable(nearest, back < exact);
    const Float below = back < exact ? nearest : other;
    const Float above = back < exact ? other : nearest;
    switch (mode) {
        case AscendC::RoundMode::CAST_FLOOR: return below;
        case AscendC::RoundMode::CAST_CEIL: return above;
        case AscendC::RoundMode::CAST_TRUNC: return exact > 0 ? below : above;
        case AscendC::RoundMode::CAST_ROUND: {
            const double to_below = exact - static_cast<double>(static_cast<float>(below));
            const double to_above = static_cast<double>(static_cast<float>(above)) - exact;
            if (to_below != to_above) return to_below < to_above ? below : above;
            return exact > 0 ? above : below;  // ties away from zero
        }
        case AscendC::RoundMode::CAST_ODD: return lowest_bit_set(below) ? below : above;
        default: return nearest;
    }
}

// Converts `length` elements at `source` into integers of T, saturated to [lowest, highest]: the
// type's range, or int4's [-8, 7] when T is the int8 staging of int4 results.
template <typename T, typename U>
inline void convert_to_integer(T* target, const U* source_data, int64_t length, AscendC::RoundMode roundMode,
                               double lowest, double highest) {
    using AscendC::RoundMode;
    const ConstArrayMap<U> source(source_data, length);
    ArrayMap<T> result(target, length);
    const auto exact = source.template cast<compute_t<U>>().template cast<double>();
    auto saturate = [&](const auto& rounded) {
        return rounded.isNaN().select(0.0, rounded.max(lowest).min(highest)).template cast<T>();
    };
    switch (roundMode) {
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT: result = saturate(exact.rint()); break;
        case RoundMode::CAST_FLOOR: result = saturate(exact.floor()); break;
        case RoundMode::CAST_CEIL: result = saturate(exact.ceil()); break;
        case RoundMode::CAST_ROUND: result = saturate(exact.round()); break;
        case RoundMode::CAST_TRUNC:
            result = saturate(exact.unaryExpr([](double value) { return std::trunc(value); }));
            break;
        default: break;  // rejected by require_round_mode
    }
}

// Converts `length` elements at `source` into `target` with `mode`.
template <typename T, typename U>
inline void convert_run(T* target, const U* source_data, int64_t length, AscendC::RoundMode roundMode) {
    using AscendC::RoundMode;
    const ConstArrayMap<U> source(source_data, length);
    ArrayMap<T> result(target, length);
    const bool nearest_even = roundMode == RoundMode::CAST_NONE || roundMode == RoundMode::CAST_RINT;
    if constexpr (std::is_same_v<T, U>) {
        result = source;
    } else if constexpr (is_float_like<T>) {
        if (nearest_even) {
            result = source.template cast<T>();
        } else {
            const RoundMode mode = roundMode;
            result = source.unaryExpr([mode](const U& value) {
                return round_directed<T>(static_cast<double>(static_cast<compute_t<U>>(value)), mode);
            });
        }
        // After the rounding, which decides whether a value past T's range overflows (a floor
        // does not); a Cast's source and destination do not overlap.
        if constexpr (is_narrow_float<T>) {
            if (canopy::kernel::current_block().detects_overflow &&
                (result.template cast<float>().isInf() && source.template cast<float>().isFinite()).any())
                std::feraiseexcept(FE_OVERFLOW);
        }
        saturate_results(target, length);
    } else {
        static_assert(std::is_integral_v<T>, "Cast converts to floating point or integer types");
        convert_to_integer(target, source_data, length, roundMode,
                           static_cast<double>(std::numeric_limits<T>::lowest()),
                           static_cast<double>(std::numeric_limits<T>::max()));
    }
}

// The rounding modes a conversion into T accepts.
template <typename T>
inline void require_round_mode(AscendC::RoundMode roundMode) {
    using AscendC::RoundMode;
    const bool directed = roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_CEIL ||
                          roundMode == RoundMode::CAST_TRUNC || roundMode == RoundMode::CAST_ROUND;
    const bool known = roundMode == RoundMode::CAST_NONE || roundMode == RoundMode::CAST_RINT || directed ||
                       roundMode == RoundMode::CAST_ODD;
    if (!known) [[unlikely]] fail_misuse("Cast", round_mode_name(roundMode), " is not a rounding mode");
    if (std::is_integral_v<T> && roundMode == RoundMode::CAST_ODD) [[unlikely]] {
        fail_misuse("Cast", round_mode_name(roundMode), " cannot round to an integer type");
    }
}

template <typename T>
inline constexpr bool is_int4 = std::is_same_v<T, AscendC::int4b_t>;

// Bits an element of T occupies in the UB: int4b_t packs two elements to a byte.
template <typename T>
inline constexpr int64_t element_bits = is_int4<T> ? 4 : 8 * int64_t(sizeof(T));

// An int4 operand: element `slot` of repeat `repeat` is a nibble of the UB, the low nibble of a byte
// first. A 32-byte block holds 64 of them.
struct Int4Operand {
    static constexpr int64_t per_block = 2 * AscendC::ONE_BLK_SIZE;
    std::byte* base;
    Strides strides;

    // Nibbles from `base` to the element.
    int64_t nibble(int64_t repeat, int64_t slot) const {
        return 2 * (repeat * strides.repeat + (slot / per_block) * strides.block) * AscendC::ONE_BLK_SIZE +
               slot % per_block;
    }
    bool blocks_contiguous() const { return strides.block == 1; }
    bool repeats_contiguous(int64_t per_repeat) const {
        return strides.block == 1 && 2 * strides.repeat * int64_t(AscendC::ONE_BLK_SIZE) == per_repeat;
    }
    int8_t read(int64_t nibble_index) const {
        const auto byte = static_cast<uint8_t>(base[nibble_index / 2]);
        const int value = (nibble_index % 2 == 0 ? byte : byte >> 4) & 0xF;
        return static_cast<int8_t>(value >= 8 ? value - 16 : value);
    }
    void write(int64_t nibble_index, int8_t value) const {
        auto& byte = reinterpret_cast<uint8_t&>(base[nibble_index / 2]);
        const uint8_t bits = static_cast<uint8_t>(value) & 0xFu;
        byte = nibble_index % 2 == 0 ? uint8_t((byte & 0xF0u) | bits) : uint8_t((byte & 0x0Fu) | (bits << 4));
    }
};

// Checks an int4 operand (a UB tensor whose GetSize() counts its nibbles) over the nibbles `active`
// reaches and returns its UB range.
inline Int4Operand int4_operand(const char* api, const char* role, Access access,
                                const AscendC::LocalTensor<AscendC::int4b_t>& tensor, Strides strides,
                                const ActiveElements& active, Operand& range) {
    require_vector_tensor(tensor, api, role);
    if (strides.block < 0 || strides.repeat < 0) [[unlikely]] {
        fail_misuse(api, role, " strides (block ", strides.block, ", repeat ", strides.repeat,
                    ") must not be negative");
    }
    Int4Operand operand{reinterpret_cast<std::byte*>(tensor.landed_address()), strides};
    const int64_t last_slot = active.last_slot();
    if (last_slot < 0) return operand;
    const auto reach = static_cast<uint64_t>(operand.nibble(active.repeats - 1, last_slot) / 2 + 1);
    const uint64_t held = tensor.GetLength();
    if (reach > held) [[unlikely]] {
        fail_misuse(api, role, " reaches ", reach, " bytes of int4 elements (", active.repeats,
                    " repeats, block stride ", strides.block, ", repeat stride ", strides.repeat,
                    ", last element ", last_slot, " of a repeat) but its ", AscendC::PositionName(tensor.position()),
                    " LocalTensor holds ", held, " bytes");
    }
    range = ub_range(api, role, access, reinterpret_cast<const std::byte*>(operand.base), reach);
    return operand;
}

// half <-> int4b_t, the A2's only conversions of int4: the 128 slots of a repeat are those of half,
// the int4 side of a repeat is 64 bytes. Results into int4 saturate to [-8, 7]; int4 converts into
// half exactly, with CAST_NONE only, as on the A2.
template <typename T, typename U>
inline void int4_cast_instruction(const VectorInstruction& instruction, const AscendC::LocalTensor<T>& dst,
                                  const AscendC::LocalTensor<U>& src, AscendC::RoundMode roundMode,
                                  const AscendC::UnaryRepeatParams& params) {
    static_assert((is_int4<T> && std::is_same_v<U, half>) || (std::is_same_v<T, half> && is_int4<U>),
                  "Cast converts int4b_t from and into half only");
    const char* api = instruction.api();
    instruction.require_dst_block_stride(params.dstBlkStride);
    if constexpr (is_int4<T>) {
        require_round_mode<int8_t>(roundMode);
    } else if (roundMode != AscendC::RoundMode::CAST_NONE) [[unlikely]] {
        fail_misuse(api, round_mode_name(roundMode), " is not a rounding mode from int4b_t to half (CAST_NONE only)");
    }
    const ActiveElements& active = instruction.active();
    Operand ranges[2];
    bool blocks_contiguous = true, repeats_contiguous = true;
    int64_t per_block = AscendC::ONE_REPEAT_BYTE_SIZE;
    auto declare = [&](const auto& operand, int64_t operand_per_block) {
        blocks_contiguous = blocks_contiguous && operand.blocks_contiguous();
        repeats_contiguous = repeats_contiguous && operand.repeats_contiguous(active.per_repeat);
        if (!operand.blocks_contiguous()) per_block = std::min(per_block, operand_per_block);
    };
    std::vector<int8_t> staging;
    if constexpr (is_int4<T>) {
        const VectorOperand<U> in =
            vector_operand(api, "src", Access::read, src, src_strides(params), active, ranges[0]);
        const Int4Operand out = int4_operand(api, "dst", Access::write, dst, dst_strides(params), active, ranges[1]);
        declare(in, block_elements<U>);
        declare(out, Int4Operand::per_block);
        pipe_instruction(Pipe::V, api, ranges, 2);
        for_each_run(active, blocks_contiguous, repeats_contiguous, per_block,
                     [&](int64_t repeat, int64_t slot, int64_t length) {
                         staging.resize(size_t(length));
                         convert_to_integer(staging.data(), in.at(repeat, slot), length, roundMode, -8.0, 7.0);
                         const int64_t first = out.nibble(repeat, slot);
                         for (int64_t i = 0; i < length; ++i) out.write(first + i, staging[size_t(i)]);
                     });
    } else {
        const Int4Operand in = int4_operand(api, "src", Access::read, src, src_strides(params), active, ranges[0]);
        const VectorOperand<T> out =
            vector_operand(api, "dst", Access::write, dst, dst_strides(params), active, ranges[1]);
        declare(in, Int4Operand::per_block);
        declare(out, block_elements<T>);
        pipe_instruction(Pipe::V, api, ranges, 2);
        for_each_run(active, blocks_contiguous, repeats_contiguous, per_block,
                     [&](int64_t repeat, int64_t slot, int64_t length) {
                         staging.resize(size_t(length));
                         const int64_t first = in.nibble(repeat, slot);
                         for (int64_t i = 0; i < length; ++i) staging[size_t(i)] = in.read(first + i);
                         convert_run(out.at(repeat, slot), staging.data(), length, roundMode);
                     });
    }
}

// A conversion: the repeat's element slots are those of the wider type.
template <typename T, typename U>
inline void cast_instruction(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                             const AscendC::LocalTensor<U>& src, AscendC::RoundMode roundMode,
                             const AscendC::UnaryRepeatParams& params) {
    if constexpr (is_int4<T> || is_int4<U>) {
        int4_cast_instruction(instruction, dst, src, roundMode, params);
    } else {
        require_round_mode<T>(roundMode);
        instruction.require_dst_block_stride(params.dstBlkStride);
        const auto in = instruction.operand("src", Access::read, src, src_strides(params));
        const auto out = instruction.operand("dst", Access::write, dst, dst_strides(params));
        instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
            convert_run(out.at(repeat, slot), in.at(repeat, slot), length, roundMode);
        });
    }
}

template <typename T, typename U>
inline constexpr int64_t wider_width = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);

// The count form's strides: a repeat holds the wider type's 256 bytes of elements, so the narrower
// operand advances by fewer blocks per repeat (4 for int8 beside half, 2 for int4), contiguous in both.
template <typename T, typename U>
inline AscendC::UnaryRepeatParams contiguous_cast_params() {
    constexpr int64_t per_repeat = AscendC::ONE_REPEAT_BYTE_SIZE / wider_width<T, U>;
    constexpr int64_t block_bits = 8 * AscendC::ONE_BLK_SIZE;
    return AscendC::UnaryRepeatParams(1, 1, static_cast<uint8_t>(per_repeat * element_bits<T> / block_bits),
                                      static_cast<uint8_t>(per_repeat * element_bits<U> / block_bits));
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count) {
    using namespace canopy::kernel::ascendc;
    cast_instruction(VectorInstruction::first_elements("Cast", wider_width<T, U>, count), dst, src, roundMode,
                     contiguous_cast_params<T, U>());
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    cast_instruction(masked_instruction<isSetMask>("Cast", wider_width<T, U>, mask, repeatTime), dst, src, roundMode,
                     repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    cast_instruction(masked_instruction<isSetMask>("Cast", wider_width<T, U>, mask, repeatTime), dst, src, roundMode,
                     repeatParams);
}

}  // namespace AscendC
