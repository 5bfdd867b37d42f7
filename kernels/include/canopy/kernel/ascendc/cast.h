#pragma once
// Cast: element type conversion on UB tiles, in the count and the high-dimensional forms.
//
// Round-to-nearest-even conversions (CAST_NONE, which Ascend C defines as CAST_RINT whenever the
// conversion is inexact, and CAST_RINT) are Eigen casts. The directed modes (floor, ceil, trunc, ties
// away from zero, round to odd) into a float type choose between the two representable neighbours
// of the exact value; into an integer type they apply the rounding function and saturate to the
// type's range (NaN becomes 0), as the vector unit does.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
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
    } else {
        static_assert(std::is_integral_v<T>, "Cast converts to floating point or integer types");
        const auto exact = source.template cast<compute_t<U>>().template cast<double>();
        const double lowest = static_cast<double>(std::numeric_limits<T>::lowest());
        const double highest = static_cast<double>(std::numeric_limits<T>::max());
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

// A conversion: the repeat's element slots are those of the wider type.
template <typename T, typename U>
inline void cast_instruction(VectorInstruction instruction, const AscendC::LocalTensor<T>& dst,
                             const AscendC::LocalTensor<U>& src, AscendC::RoundMode roundMode,
                             const AscendC::UnaryRepeatParams& params) {
    require_round_mode<T>(roundMode);
    instruction.require_dst_block_stride(params.dstBlkStride);
    const auto in = instruction.operand("src", Access::read, src, src_strides(params));
    const auto out = instruction.operand("dst", Access::write, dst, dst_strides(params));
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        convert_run(out.at(repeat, slot), in.at(repeat, slot), length, roundMode);
    });
}

template <typename T, typename U>
inline constexpr int64_t wider_width = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);

// The count form's strides: a repeat holds the wider type's 256 bytes of elements, so the narrower
// operand advances by fewer blocks per repeat (4 for int8 beside half), contiguous in both.
template <typename T, typename U>
inline AscendC::UnaryRepeatParams contiguous_cast_params() {
    constexpr int64_t per_repeat = AscendC::ONE_REPEAT_BYTE_SIZE / wider_width<T, U>;
    return AscendC::UnaryRepeatParams(1, 1, static_cast<uint8_t>(per_repeat * sizeof(T) / AscendC::ONE_BLK_SIZE),
                                      static_cast<uint8_t>(per_repeat * sizeof(U) / AscendC::ONE_BLK_SIZE));
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
