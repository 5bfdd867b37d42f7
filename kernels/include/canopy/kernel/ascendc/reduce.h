#pragma once
// Reductions on UB tiles.
//
// Whole-tensor reductions (ReduceSum, ReduceMax, ReduceMin), in the count form and in the
// high-dimensional form (mask, repeatTime, srcRepStride): dst[0] is the result, dst[1] the index
// of the extreme value when asked for. Per-repeat reductions (ReduceRepeat: one result per repeat;
// ReduceDataBlock: one per 32-byte block; ReducePairElem: one per adjacent pair), each result
// written to dst repeat by repeat, dstRepStride counting one repeat's results.
//
// Sums add the way the A2 does: inside a repeat (256 bytes) the elements are added as a binary tree
// of adjacent pairs (d0+d1, d2+d3, ..., then the same on the sums), inactive elements counting as
// zero, and the repeats' sums are then added in order. Every partial sum is rounded to T, as the
// vector unit stores it. The last whole-tensor result stays readable through
// GetReduceRepeatSumSpr / GetReduceRepeatMaxMinSpr.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_ops.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace AscendC {

enum class ReduceType {
    NONE = -1,
    SUM = 0,
    MAX,
    MIN,
};

enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

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

// The active elements of one repeat of `source`, inactive slots zero, and which slots are active.
template <typename T>
struct RepeatValues {
    std::array<T, repeat_elements<T>> values{};
    std::array<bool, repeat_elements<T>> active{};
    int64_t slots = 0;  // slots of the repeat that may be active (counter mode: a prefix)
};

template <typename T>
inline RepeatValues<T> repeat_values(const VectorInstruction& instruction, const VectorOperand<T>& source, int64_t repeat) {
    RepeatValues<T> out;
    const ActiveElements& active = instruction.active();
    out.slots = active.counter ? active.counter_slots(repeat) : active.per_repeat;
    for (int64_t slot = 0; slot < out.slots; ++slot) {
        if (active.counter || active.active(slot)) {
            out.values[slot] = *source.at(repeat, slot);
            out.active[slot] = true;
        }
    }
    return out;
}

// The extreme active value of `values[first, first + length)` and its first slot; `found` false when
// no slot there is active.
template <bool kMax, typename T>
struct Extreme {
    compute_t<T> value = kMax ? -std::numeric_limits<compute_t<T>>::infinity()
                              : std::numeric_limits<compute_t<T>>::infinity();
    int64_t slot = 0;
    bool found = false;

    void offer(compute_t<T> candidate, int64_t candidate_slot) {
        const bool better = kMax ? candidate > value : candidate < value;
        if (!found || better) {
            value = candidate;
            slot = candidate_slot;
            found = true;
        }
    }
};

// An index written into an element of T as an unsigned integer of T's width.
template <typename T>
inline T index_bits(uint64_t index) {
    T bits{};
    if constexpr (sizeof(T) == 2) {
        const uint16_t narrow = static_cast<uint16_t>(index);
        std::memcpy(static_cast<void*>(&bits), &narrow, sizeof(T));
    } else {
        const uint32_t wide = static_cast<uint32_t>(index);
        std::memcpy(static_cast<void*>(&bits), &wide, sizeof(T) < sizeof(wide) ? sizeof(T) : sizeof(wide));
    }
    return bits;
}

template <typename T>
inline void require_reduce_type() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "the vector unit's reductions work on half and float");
}

// The destination of a per-repeat or per-block reduction: a UB tensor aligned as the A2 writes its
// results (CANN's checks: an element for a repeat's sum, a (value, index) pair for its extreme, 8
// elements for one repeat's block results), not necessarily to 32 bytes.
template <typename T>
inline void require_reduce_dst(const AscendC::LocalTensor<T>& dst, const char* api, uint64_t alignment) {
    require_memory(dst, AscendC::Hardware::UB, api, "dst");
    const auto address = reinterpret_cast<std::uintptr_t>(dst.address());
    if (address % alignment != 0) [[unlikely]] {
        fail_misuse(api, "dst starts ", address % AscendC::ONE_BLK_SIZE, " bytes past a 32-byte boundary; this API "
                    "needs it ", alignment, "-byte aligned");
    }
}

// ---- Whole-tensor reductions -----------------------------------------------------------------

template <typename T>
inline void reduce_sum_all(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                           const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& sharedTmpBuffer,
                           int64_t srcRepStride) {
    require_reduce_type<T>();
    // The NPU keeps per-repeat partial sums in sharedTmpBuffer; here they stay on the stack.
    require_memory(sharedTmpBuffer, AscendC::Hardware::UB, instruction.api(), "sharedTmpBuffer");
    const auto source = instruction.operand("src", Access::read, src, {1, srcRepStride});
    instruction.issue();
    require_vector_tensor(dst, instruction.api(), "dst");
    require_elements(dst, 1, instruction.api(), "dst");
    const int64_t repeats = instruction.active().repeats;
    T total = T(0);
    for (int64_t repeat = 0; repeat < repeats; ++repeat) {
        const RepeatValues<T> values = repeat_values(instruction, source, repeat);
        const T repeat_sum = repeat_tree_sum(values.values.data(), values.slots);
        total = repeat == 0 ? repeat_sum : T(compute_t<T>(total) + compute_t<T>(repeat_sum));
    }
    access_ub(instruction.api(), "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()),
              sizeof(T));
    dst.landed_address()[0] = total;
    saturate_results(dst.landed_address(), 1);
    vector_registers().reduce_value = static_cast<double>(compute_t<T>(dst.landed_address()[0]));
}

// dst[0] = the extreme value; with calIndex, dst[1] holds its (first) index as an integer bit pattern.
template <bool kMax, typename T>
inline void reduce_extreme_all(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& sharedTmpBuffer,
                               int64_t srcRepStride, bool calIndex) {
    require_reduce_type<T>();
    const char* api = instruction.api();
    require_memory(sharedTmpBuffer, AscendC::Hardware::UB, api, "sharedTmpBuffer");
    if (instruction.active().last_slot() < 0) [[unlikely]] fail_misuse(api, "no element takes part: count or mask is 0");
    const auto source = instruction.operand("src", Access::read, src, {1, srcRepStride});
    instruction.issue();
    require_vector_tensor(dst, api, "dst");
    require_elements(dst, calIndex ? 2 : 1, api, "dst");
    const int64_t per_repeat = instruction.active().per_repeat;
    Extreme<kMax, T> extreme;
    for (int64_t repeat = 0; repeat < instruction.active().repeats; ++repeat) {
        const RepeatValues<T> values = repeat_values(instruction, source, repeat);
        for (int64_t slot = 0; slot < values.slots; ++slot) {
            if (values.active[slot]) extreme.offer(compute_t<T>(values.values[slot]), repeat * per_repeat + slot);
        }
    }
    access_ub(api, "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()),
              (calIndex ? 2 : 1) * sizeof(T));
    dst.landed_address()[0] = static_cast<T>(extreme.value);
    if (calIndex) dst.landed_address()[1] = index_bits<T>(extreme.slot);
    vector_registers().reduce_value = static_cast<double>(extreme.value);
    vector_registers().reduce_index = static_cast<uint32_t>(extreme.slot);
}

// ---- Per-repeat reductions -------------------------------------------------------------------

// Writes `values` (one repeat's results) to dst at element `offset`, checked against dst.
template <typename T>
inline void store_results(const char* api, const AscendC::LocalTensor<T>& dst, int64_t offset, const T* values,
                          int64_t count) {
    require_elements(dst, offset + count, api, "dst");
    access_ub(api, "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address() + offset),
              count * sizeof(T));
    std::copy(values, values + count, dst.landed_address() + offset);
    saturate_results(dst.landed_address() + offset, count);
}

template <AscendC::ReduceType kType, typename T>
inline void reduce_repeat(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                          const AscendC::LocalTensor<T>& src, int64_t dstRepStride, int64_t srcBlkStride,
                          int64_t srcRepStride, AscendC::ReduceOrder order) {
    require_reduce_type<T>();
    const char* api = instruction.api();
    require_reduce_dst(dst, api, (kType == AscendC::ReduceType::SUM ? 1 : 2) * sizeof(T));
    const auto source = instruction.operand("src", Access::read, src, {srcBlkStride, srcRepStride});
    instruction.issue();
    const bool pair = kType != AscendC::ReduceType::SUM && (order == AscendC::ReduceOrder::ORDER_VALUE_INDEX ||
                                                            order == AscendC::ReduceOrder::ORDER_INDEX_VALUE);
    const int64_t results = pair ? 2 : 1;
    for (int64_t repeat = 0; repeat < instruction.active().repeats; ++repeat) {
        const RepeatValues<T> values = repeat_values(instruction, source, repeat);
        std::array<T, 2> out{};
        if constexpr (kType == AscendC::ReduceType::SUM) {
            out[0] = repeat_tree_sum(values.values.data(), values.slots);
        } else {
            Extreme<kType == AscendC::ReduceType::MAX, T> extreme;
            for (int64_t slot = 0; slot < values.slots; ++slot) {
                if (values.active[slot]) extreme.offer(compute_t<T>(values.values[slot]), slot);
            }
            if (!extreme.found) continue;  // nothing active: dst keeps its value
            const T value = static_cast<T>(extreme.value);
            const T index = index_bits<T>(extreme.slot);
            switch (order) {
                case AscendC::ReduceOrder::ORDER_VALUE_INDEX: out = {value, index}; break;
                case AscendC::ReduceOrder::ORDER_INDEX_VALUE: out = {index, value}; break;
                case AscendC::ReduceOrder::ORDER_ONLY_VALUE: out[0] = value; break;
                case AscendC::ReduceOrder::ORDER_ONLY_INDEX: out[0] = index; break;
            }
        }
        store_results(api, dst, repeat * dstRepStride * results, out.data(), results);
    }
}

// One result per 32-byte block of each repeat; blocks with no active element are not written.
template <AscendC::ReduceType kType, typename T>
inline void reduce_data_block(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src, int64_t dstRepStride, int64_t srcBlkStride,
                              int64_t srcRepStride) {
    require_reduce_type<T>();
    const char* api = instruction.api();
    require_reduce_dst(dst, api, AscendC::DEFAULT_BLK_NUM * sizeof(T));
    const auto source = instruction.operand("src", Access::read, src, {srcBlkStride, srcRepStride});
    instruction.issue();
    constexpr int64_t per_block = block_elements<T>;
    for (int64_t repeat = 0; repeat < instruction.active().repeats; ++repeat) {
        const RepeatValues<T> values = repeat_values(instruction, source, repeat);
        for (int64_t block = 0; block < AscendC::DEFAULT_BLK_NUM; ++block) {
            T result{};
            bool any = false;
            if constexpr (kType == AscendC::ReduceType::SUM) {
                for (int64_t slot = block * per_block; slot < (block + 1) * per_block && slot < values.slots; ++slot) {
                    any = any || values.active[slot];
                }
                result = repeat_tree_sum(values.values.data() + block * per_block, per_block);
            } else {
                Extreme<kType == AscendC::ReduceType::MAX, T> extreme;
                for (int64_t slot = block * per_block; slot < (block + 1) * per_block && slot < values.slots; ++slot) {
                    if (values.active[slot]) extreme.offer(compute_t<T>(values.values[slot]), slot);
                }
                any = extreme.found;
                result = static_cast<T>(extreme.value);
            }
            if (any) store_results(api, dst, repeat * dstRepStride * AscendC::DEFAULT_BLK_NUM + block, &result, 1);
        }
    }
}

// Sums of adjacent (even, odd) pairs; a pair with neither element active is not written.
template <typename T>
inline void reduce_pair_elem(VectorInstruction&& instruction, const AscendC::LocalTensor<T>& dst,
                             const AscendC::LocalTensor<T>& src, int64_t dstRepStride, int64_t srcBlkStride,
                             int64_t srcRepStride) {
    require_reduce_type<T>();
    const char* api = instruction.api();
    require_vector_tensor(dst, api, "dst");
    const auto source = instruction.operand("src", Access::read, src, {srcBlkStride, srcRepStride});
    instruction.issue();
    const int64_t pairs = instruction.active().per_repeat / 2;
    for (int64_t repeat = 0; repeat < instruction.active().repeats; ++repeat) {
        const RepeatValues<T> values = repeat_values(instruction, source, repeat);
        for (int64_t pair = 0; pair < pairs; ++pair) {
            if (!values.active[2 * pair] && !values.active[2 * pair + 1]) continue;
            const T sum = T(compute_t<T>(values.values[2 * pair]) + compute_t<T>(values.values[2 * pair + 1]));
            store_results(api, dst, repeat * dstRepStride * pairs + pair, &sum, 1);
        }
    }
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// ---- ReduceSum / ReduceMax / ReduceMin -------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count) {
    using namespace canopy::kernel::ascendc;
    reduce_sum_all(VectorInstruction::first_elements("ReduceSum", sizeof(T), count), dst, src, sharedTmpBuffer,
                   DEFAULT_REPEAT_STRIDE);
}

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride) {
    using namespace canopy::kernel::ascendc;
    reduce_sum_all(masked_instruction<true>("ReduceSum", sizeof(T), static_cast<uint64_t>(mask), repeatTime), dst, src,
                   sharedTmpBuffer, srcRepStride);
}

template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride) {
    using namespace canopy::kernel::ascendc;
    reduce_sum_all(masked_instruction<true>("ReduceSum", sizeof(T), mask, repeatTime), dst, src, sharedTmpBuffer,
                   srcRepStride);
}

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<true>(VectorInstruction::first_elements("ReduceMax", sizeof(T), count), dst, src,
                             sharedTmpBuffer, DEFAULT_REPEAT_STRIDE, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<true>(
        masked_instruction<true>("ReduceMax", sizeof(T), static_cast<uint64_t>(mask), repeatTime), dst, src,
        sharedTmpBuffer, srcRepStride, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<true>(masked_instruction<true>("ReduceMax", sizeof(T), mask, repeatTime), dst, src,
                             sharedTmpBuffer, srcRepStride, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<false>(VectorInstruction::first_elements("ReduceMin", sizeof(T), count), dst, src,
                              sharedTmpBuffer, DEFAULT_REPEAT_STRIDE, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<false>(
        masked_instruction<true>("ReduceMin", sizeof(T), static_cast<uint64_t>(mask), repeatTime), dst, src,
        sharedTmpBuffer, srcRepStride, calIndex);
}

template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) {
    using namespace canopy::kernel::ascendc;
    reduce_extreme_all<false>(masked_instruction<true>("ReduceMin", sizeof(T), mask, repeatTime), dst, src,
                              sharedTmpBuffer, srcRepStride, calIndex);
}

// The result of the last ReduceSum of this block.
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr() {
    return static_cast<T>(canopy::kernel::ascendc::vector_registers().reduce_value);
}

// The value and index of the last ReduceMax / ReduceMin of this block (the index as an integer bit
// pattern in T, as the instruction writes it).
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
    const auto& registers = canopy::kernel::ascendc::vector_registers();
    maxMinValue = static_cast<T>(registers.reduce_value);
    maxMinIndex = canopy::kernel::ascendc::index_bits<T>(registers.reduce_index);
}

template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue) {
    maxMinValue = static_cast<T>(canopy::kernel::ascendc::vector_registers().reduce_value);
}

// ---- ReduceRepeat / ReduceDataBlock / ReducePairElem ------------------------------------------

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
    static_assert(std::is_same_v<T, U>, "ReduceRepeat needs dst and src of one type on the A2");
    using namespace canopy::kernel::ascendc;
    reduce_repeat<reduceType>(
        masked_instruction<isSetMask>("ReduceRepeat", sizeof(U), static_cast<uint64_t>(mask), repeatTime), dst, src,
        dstRepStride, srcBlkStride, srcRepStride, order);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                    const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
    static_assert(std::is_same_v<T, U>, "ReduceRepeat needs dst and src of one type on the A2");
    using namespace canopy::kernel::ascendc;
    reduce_repeat<reduceType>(masked_instruction<isSetMask>("ReduceRepeat", sizeof(U), mask, repeatTime), dst, src,
                              dstRepStride, srcBlkStride, srcRepStride, order);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                       const int32_t repeatTime, const int32_t dstRepStride,
                                       const int32_t srcBlkStride, const int32_t srcRepStride) {
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock needs dst and src of one type");
    using namespace canopy::kernel::ascendc;
    reduce_data_block<reduceType>(
        masked_instruction<isSetMask>("ReduceDataBlock", sizeof(U), static_cast<uint64_t>(mask), repeatTime), dst,
        src, dstRepStride, srcBlkStride, srcRepStride);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                       const int32_t repeatTime, const int32_t dstRepStride,
                                       const int32_t srcBlkStride, const int32_t srcRepStride) {
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock needs dst and src of one type");
    using namespace canopy::kernel::ascendc;
    reduce_data_block<reduceType>(masked_instruction<isSetMask>("ReduceDataBlock", sizeof(U), mask, repeatTime), dst,
                                  src, dstRepStride, srcBlkStride, srcRepStride);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride,
                                      const int32_t srcBlkStride, const int32_t srcRepStride) {
    static_assert(std::is_same_v<T, U>, "ReducePairElem needs dst and src of one type");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem only sums");
    using namespace canopy::kernel::ascendc;
    reduce_pair_elem(
        masked_instruction<isSetMask>("ReducePairElem", sizeof(U), static_cast<uint64_t>(mask), repeatTime), dst, src,
        dstRepStride, srcBlkStride, srcRepStride);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
__aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride,
                                      const int32_t srcBlkStride, const int32_t srcRepStride) {
    static_assert(std::is_same_v<T, U>, "ReducePairElem needs dst and src of one type");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem only sums");
    using namespace canopy::kernel::ascendc;
    reduce_pair_elem(masked_instruction<isSetMask>("ReducePairElem", sizeof(U), mask, repeatTime), dst, src,
                     dstRepStride, srcBlkStride, srcRepStride);
}


// ---- The names CANN 9.0 and earlier give these instructions ------------------------------------
// BlockReduceSum / Max / Min are ReduceDataBlock, PairReduceSum is ReducePairElem (repeatTime before
// the mask); WholeReduceSum / Max / Min are ReduceRepeat; RepeatReduceSum is ReduceRepeat<SUM> with
// the mask a count of leading elements and a dstBlkStride the A2 ignores (asc-devkit 18a4cb649^,
// include/basic_api/kernel_operator_vec_reduce_intf.h and dav_c220/kernel_operator_vec_reduce_impl.h).

#define CANOPY_BLOCK_REDUCE(name, type)                                                                           \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,   \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,       \
                                const int32_t srcRepStride) {                                                     \
        using namespace canopy::kernel::ascendc;                                                                  \
        reduce_data_block<type>(masked_instruction<isSetMask>(#name, sizeof(T), static_cast<uint64_t>(mask),      \
                                                              repeatTime),                                        \
                                dst, src, dstRepStride, srcBlkStride, srcRepStride);                              \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,   \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,    \
                                const int32_t srcRepStride) {                                                     \
        using namespace canopy::kernel::ascendc;                                                                  \
        reduce_data_block<type>(masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,      \
                                dstRepStride, srcBlkStride, srcRepStride);                                        \
    }

CANOPY_BLOCK_REDUCE(BlockReduceSum, ReduceType::SUM)
CANOPY_BLOCK_REDUCE(BlockReduceMax, ReduceType::MAX)
CANOPY_BLOCK_REDUCE(BlockReduceMin, ReduceType::MIN)
#undef CANOPY_BLOCK_REDUCE

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride) {
    using namespace canopy::kernel::ascendc;
    reduce_pair_elem(masked_instruction<isSetMask>("PairReduceSum", sizeof(T), static_cast<uint64_t>(mask), repeatTime),
                     dst, src, dstRepStride, srcBlkStride, srcRepStride);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride) {
    using namespace canopy::kernel::ascendc;
    reduce_pair_elem(masked_instruction<isSetMask>("PairReduceSum", sizeof(T), mask, repeatTime), dst, src,
                     dstRepStride, srcBlkStride, srcRepStride);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride) {
    using namespace canopy::kernel::ascendc;
    static_cast<void>(dstBlkStride);  // one result per repeat: the A2's vcadd has no destination block stride
    reduce_repeat<ReduceType::SUM>(
        masked_instruction<isSetMask>("RepeatReduceSum", sizeof(T), static_cast<uint64_t>(mask), repeatTime), dst,
        src, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_VALUE_INDEX);
}

#define CANOPY_WHOLE_REDUCE_SUM(MaskType)                                                                          \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask,    \
                                          const int32_t repeatTime, const int32_t dstRepStride,                   \
                                          const int32_t srcBlkStride, const int32_t srcRepStride) {               \
        using namespace canopy::kernel::ascendc;                                                                  \
        reduce_repeat<ReduceType::SUM>(masked_instruction<isSetMask>("WholeReduceSum", sizeof(T), mask, repeatTime), \
                                       dst, src, dstRepStride, srcBlkStride, srcRepStride,                        \
                                       ReduceOrder::ORDER_VALUE_INDEX);                                           \
    }

#define CANOPY_WHOLE_REDUCE_EXTREME(name, type, MaskType)                                                          \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskType mask,              \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { \
        using namespace canopy::kernel::ascendc;                                                                  \
        reduce_repeat<type>(masked_instruction<isSetMask>(#name, sizeof(T), mask, repeatTime), dst, src,          \
                            dstRepStride, srcBlkStride, srcRepStride, order);                                     \
    }

CANOPY_WHOLE_REDUCE_SUM(const uint64_t*)
CANOPY_WHOLE_REDUCE_SUM(const int32_t)
CANOPY_WHOLE_REDUCE_EXTREME(WholeReduceMax, ReduceType::MAX, const uint64_t*)
CANOPY_WHOLE_REDUCE_EXTREME(WholeReduceMax, ReduceType::MAX, const int32_t)
CANOPY_WHOLE_REDUCE_EXTREME(WholeReduceMin, ReduceType::MIN, const uint64_t*)
CANOPY_WHOLE_REDUCE_EXTREME(WholeReduceMin, ReduceType::MIN, const int32_t)
#undef CANOPY_WHOLE_REDUCE_SUM
#undef CANOPY_WHOLE_REDUCE_EXTREME

}  // namespace AscendC
