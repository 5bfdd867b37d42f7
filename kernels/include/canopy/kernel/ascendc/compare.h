#pragma once
// Compare, Compares and Select: element-wise comparisons into bit masks, and selection by a bit mask.
//
// A comparison's result is one bit per element, little-endian within each byte (element i is bit
// i % 8 of byte i / 8), packed repeat after repeat. On the A2 the mask of the high-dimensional
// Compare is reserved: every element of every repeat is compared, and the count form compares only
// whole 256-byte repeats. Compare without a destination leaves one repeat's bits in the compare
// mask register (GetCmpMask reads its 128 bits, SetCmpMask loads them).
//
// Select picks src0 where the selection mask's bit is 1 and src1 (or a scalar) where it is 0. In
// VSEL_CMPMASK_SPR mode every repeat uses the same first 256 / sizeof(T) bits; the other two modes
// consume the mask continuously, repeat after repeat.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_ops.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace AscendC {

enum class CMPMODE : uint8_t {
    LT = 0,
    GT,
    EQ,
    LE,
    GE,
    NE,
};

enum class SELMODE : uint8_t {
    VSEL_CMPMASK_SPR = 0,
    VSEL_TENSOR_SCALAR_MODE,
    VSEL_TENSOR_TENSOR_MODE,
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

inline const char* cmp_mode_name(AscendC::CMPMODE mode) {
    switch (mode) {
        case AscendC::CMPMODE::LT: return "LT";
        case AscendC::CMPMODE::GT: return "GT";
        case AscendC::CMPMODE::EQ: return "EQ";
        case AscendC::CMPMODE::LE: return "LE";
        case AscendC::CMPMODE::GE: return "GE";
        case AscendC::CMPMODE::NE: return "NE";
        default: return "an unknown CMPMODE";
    }
}

template <typename T>
inline void require_compare_type(const char* api, AscendC::CMPMODE mode) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "the A2 compares half, float and int32_t");
    if (static_cast<uint8_t>(mode) > static_cast<uint8_t>(AscendC::CMPMODE::NE)) [[unlikely]] {
        fail_misuse(api, "cmpMode ", static_cast<int>(mode), " is not a CMPMODE");
    }
    if (std::is_same_v<T, int32_t> && mode != AscendC::CMPMODE::EQ) [[unlikely]] {
        fail_misuse(api, "int32_t elements compare only with CMPMODE::EQ, not ", cmp_mode_name(mode));
    }
}

// `length` comparisons of a[i] with b[i] (b's stride 0 compares with one scalar), into bits.
template <typename T>
inline void compare_run(const T* a, const T* b, int64_t b_stride, int64_t length, AscendC::CMPMODE mode,
                        bool* results) {
    using Compute = compute_t<T>;
    const auto left = ConstArrayMap<T>(a, length).template cast<Compute>();
    Eigen::Map<Eigen::Array<bool, Eigen::Dynamic, 1>> out(results, length);
    const auto right = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>, 0, Eigen::InnerStride<>>(
                           b, length, Eigen::InnerStride<>(b_stride))
                           .template cast<Compute>();
    switch (mode) {
        case AscendC::CMPMODE::LT: out = left < right; break;
        case AscendC::CMPMODE::GT: out = left > right; break;
        case AscendC::CMPMODE::EQ: out = left == right; break;
        case AscendC::CMPMODE::LE: out = left <= right; break;
        case AscendC::CMPMODE::GE: out = left >= right; break;
        case AscendC::CMPMODE::NE: out = left != right; break;
    }
}

inline void set_bit(uint8_t* bytes, int64_t bit, bool value) {
    const uint8_t flag = uint8_t(1u << (bit % 8));
    bytes[bit / 8] = value ? uint8_t(bytes[bit / 8] | flag) : uint8_t(bytes[bit / 8] & ~flag);
}

inline bool get_bit(const uint8_t* bytes, int64_t bit) { return (bytes[bit / 8] >> (bit % 8)) & 1u; }

// Compares every slot of `instruction`'s repeats; bit (repeat * per_repeat + slot) of `bits`.
// `src1` null compares with `scalar`.
template <typename T>
inline void compare_into(const VectorInstruction& instruction, const VectorOperand<T>& src0,
                         const VectorOperand<T>* src1, T scalar, AscendC::CMPMODE mode, uint8_t* bits) {
    const int64_t per_repeat = instruction.active().per_repeat;
    bool results[256];
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        for (int64_t done = 0; done < length; done += 256) {
            const int64_t piece = std::min<int64_t>(256, length - done);
            const T* right = src1 ? src1->at(repeat, slot + done) : &scalar;
            compare_run(src0.at(repeat, slot + done), right, src1 ? 1 : 0, piece, mode, results);
            const int64_t first_bit = repeat * per_repeat + slot + done;
            for (int64_t i = 0; i < piece; ++i) set_bit(bits, first_bit + i, results[i]);
        }
    });
}

// The packed result of `instruction` into dst, checked against dst's allocation.
template <typename U>
inline uint8_t* compare_destination(const VectorInstruction& instruction, const AscendC::LocalTensor<U>& dst) {
    static_assert(sizeof(U) == 1, "comparison results are bytes of bits (int8_t or uint8_t)");
    const char* api = instruction.api();
    require_vector_tensor(dst, api, "dst");
    const int64_t bits = instruction.active().repeats * instruction.active().per_repeat;
    const int64_t bytes = (bits + 7) / 8;
    require_elements(dst, bytes, api, "dst");
    access_ub(api, "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), bytes);
    return reinterpret_cast<uint8_t*>(dst.landed_address());
}

// The count form's repeats: only whole 256-byte repeats are compared.
template <typename T>
inline int64_t whole_repeats_of(const char* api, int64_t count) {
    if (count < 0) [[unlikely]] fail_misuse(api, "count ", count, " must not be negative");
    return count / repeat_elements<T>;
}

template <typename T, typename U>
inline void compare_tensors(VectorInstruction&& instruction, const AscendC::LocalTensor<U>& dst,
                            const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                            AscendC::CMPMODE mode, const AscendC::BinaryRepeatParams& params) {
    require_compare_type<T>(instruction.api(), mode);
    const auto a = instruction.operand("src0", Access::read, src0, src0_strides(params));
    const auto b = instruction.operand("src1", Access::read, src1, src1_strides(params));
    uint8_t* bits = compare_destination(instruction, dst);
    compare_into(instruction, a, &b, T{}, mode, bits);
}

template <typename T, typename U>
inline void compare_scalar(VectorInstruction&& instruction, const AscendC::LocalTensor<U>& dst,
                           const AscendC::LocalTensor<T>& src0, T scalar, AscendC::CMPMODE mode,
                           const AscendC::UnaryRepeatParams& params) {
    require_compare_type<T>(instruction.api(), mode);
    const auto a = instruction.operand("src0", Access::read, src0, src_strides(params));
    uint8_t* bits = compare_destination(instruction, dst);
    compare_into(instruction, a, static_cast<const VectorOperand<T>*>(nullptr), scalar, mode, bits);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// ---- Compare: dst bits = src0 (cmpMode) src1 -------------------------------------------------

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count) {
    using namespace canopy::kernel::ascendc;
    compare_tensors(VectorInstruction::whole_repeats("Compare", sizeof(T), whole_repeats_of<T>("Compare", count)),
                    dst, src0, src1, cmpMode, BinaryRepeatParams{});
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams) {
    static_cast<void>(mask);  // reserved on the A2
    using namespace canopy::kernel::ascendc;
    compare_tensors(VectorInstruction::whole_repeats("Compare", sizeof(T), repeatTime), dst, src0, src1, cmpMode,
                    repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams) {
    static_cast<void>(mask);  // reserved on the A2
    using namespace canopy::kernel::ascendc;
    compare_tensors(VectorInstruction::whole_repeats("Compare", sizeof(T), repeatTime), dst, src0, src1, cmpMode,
                    repeatParams);
}

// One repeat compared into the compare mask register, under the instruction's mask: inactive
// elements give 0 bits.
namespace canopy_detail {
template <bool isSetMask, typename T, typename Mask>
inline void compare_to_register(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                                const Mask& mask, const BinaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    VectorInstruction instruction = masked_instruction<isSetMask>("Compare", sizeof(T), mask, 1);
    require_compare_type<T>("Compare", cmpMode);
    const auto a = instruction.operand("src0", Access::read, src0, src0_strides(repeatParams));
    const auto b = instruction.operand("src1", Access::read, src1, src1_strides(repeatParams));
    uint8_t bits[16] = {};
    compare_into(instruction, a, &b, T{}, cmpMode, bits);
    auto& registers = vector_registers();
    std::memcpy(registers.compare_mask, bits, sizeof(bits));
}
}  // namespace canopy_detail

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
    canopy_detail::compare_to_register<isSetMask>(src0, src1, cmpMode, mask, repeatParams);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams) {
    canopy_detail::compare_to_register<isSetMask>(src0, src1, cmpMode, mask, repeatParams);
}

// The compare mask register's 128 bits into the first 16 bytes of dst.
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst) {
    using namespace canopy::kernel::ascendc;
    require_vector_tensor(dst, "GetCmpMask", "dst");
    require_elements(dst, (16 + sizeof(T) - 1) / sizeof(T), "GetCmpMask", "dst");
    access_ub("GetCmpMask", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), 16);
    std::memcpy(static_cast<void*>(dst.landed_address()), vector_registers().compare_mask, 16);
}

template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src) {
    using namespace canopy::kernel::ascendc;
    require_vector_tensor(src, "SetCmpMask", "src");
    require_elements(src, (16 + sizeof(T) - 1) / sizeof(T), "SetCmpMask", "src");
    access_ub("SetCmpMask", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()), 16);
    std::memcpy(vector_registers().compare_mask, static_cast<const void*>(src.landed_address()), 16);
}

// ---- Compares: dst bits = src0 (cmpMode) scalar ----------------------------------------------

template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                CMPMODE cmpMode, uint32_t count) {
    using namespace canopy::kernel::ascendc;
    compare_scalar(VectorInstruction::whole_repeats("Compares", sizeof(T), whole_repeats_of<T>("Compares", count)),
                   dst, src0, src1Scalar, cmpMode, UnaryRepeatParams{});
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                                const UnaryRepeatParams& repeatParams) {
    static_cast<void>(mask);  // reserved on the A2
    using namespace canopy::kernel::ascendc;
    compare_scalar(VectorInstruction::whole_repeats("Compares", sizeof(T), repeatTime), dst, src0, src1Scalar, cmpMode,
                   repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                                const UnaryRepeatParams& repeatParams) {
    static_cast<void>(mask);  // reserved on the A2
    using namespace canopy::kernel::ascendc;
    compare_scalar(VectorInstruction::whole_repeats("Compares", sizeof(T), repeatTime), dst, src0, src1Scalar, cmpMode,
                   repeatParams);
}

// The earlier name of Compares.
template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                                     CMPMODE cmpMode, uint32_t count) {
    Compares(dst, src0, src1Scalar, cmpMode, count);
}

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// dst = bit ? src0 : src1 (or the scalar when src1 is null) over the instruction's active elements.
template <typename T, typename U>
inline void select_elements(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                            const AscendC::LocalTensor<U>& selMask, const AscendC::LocalTensor<T>& src0,
                            const AscendC::LocalTensor<T>* src1, T scalar, AscendC::SELMODE selMode,
                            const AscendC::BinaryRepeatParams& params) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, Eigen::bfloat16>,
                  "Select works on half, bfloat16_t and float");
    const char* api = instruction.api();
    if (static_cast<uint8_t>(selMode) > static_cast<uint8_t>(AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE)) [[unlikely]] {
        fail_misuse(api, "selMode ", static_cast<int>(selMode), " is not a SELMODE");
    }
    if ((selMode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) != (src1 == nullptr)) [[unlikely]] {
        fail_misuse(api, src1 ? "a tensor src1 needs VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE"
                              : "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
    }
    instruction.require_dst_block_stride(params.dstBlkStride);
    const int64_t per_repeat = instruction.active().per_repeat;
    const bool same_bits_every_repeat = selMode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
    require_vector_tensor(selMask, api, "selMask");
    const int64_t mask_bits =
        same_bits_every_repeat ? per_repeat : instruction.active().repeats * per_repeat;
    const int64_t mask_bytes = (mask_bits + 7) / 8;
    require_elements(selMask, (mask_bytes + sizeof(U) - 1) / sizeof(U), api, "selMask");
    access_ub(api, "selMask", Access::read, reinterpret_cast<const std::byte*>(selMask.landed_address()), mask_bytes);
    const auto* bits = reinterpret_cast<const uint8_t*>(selMask.landed_address());
    const auto a = instruction.operand("src0", Access::read, src0, src0_strides(params));
    VectorOperand<T> b{nullptr, {}};
    if (src1) b = instruction.operand("src1", Access::read, *src1, src1_strides(params));
    const auto out = instruction.operand("dst", Access::write, dst, dst_strides(params));
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        const T* left = a.at(repeat, slot);
        const T* right = src1 ? b.at(repeat, slot) : nullptr;
        T* target = out.at(repeat, slot);
        for (int64_t i = 0; i < length; ++i) {
            // A run may span repeats (contiguous operands): count the element from the start.
            const int64_t element = repeat * per_repeat + slot + i;
            const int64_t bit = same_bits_every_repeat ? element % per_repeat : element;
            target[i] = get_bit(bits, bit) ? left[i] : (right ? right[i] : scalar);
        }
    });
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// ---- Select ----------------------------------------------------------------------------------

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
    using namespace canopy::kernel::ascendc;
    select_elements(VectorInstruction::first_elements("Select", sizeof(T), count), dst, selMask, src0, &src1, T{},
                    selMode, BinaryRepeatParams{});
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t count) {
    using namespace canopy::kernel::ascendc;
    select_elements(VectorInstruction::first_elements("Select", sizeof(T), count), dst, selMask, src0,
                    static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, BinaryRepeatParams{});
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    select_elements(masked_instruction<isSetMask>("Select", sizeof(T), mask, repeatTime), dst, selMask, src0, &src1,
                    T{}, selMode, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    select_elements(masked_instruction<isSetMask>("Select", sizeof(T), mask, repeatTime), dst, selMask, src0, &src1,
                    T{}, selMode, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    select_elements(masked_instruction<isSetMask>("Select", sizeof(T), mask, repeatTime), dst, selMask, src0,
                    static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, repeatParams);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    select_elements(masked_instruction<isSetMask>("Select", sizeof(T), mask, repeatTime), dst, selMask, src0,
                    static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, repeatParams);
}

}  // namespace AscendC
