#pragma once
// The vector unit as Ascend C's vector instructions drive it, and the one path every vector
// instruction takes to the Unified Buffer.
//
// An instruction runs `repeats` repeats; a repeat reads and writes 8 data blocks of 32 bytes per
// operand (256 bytes: 128 halves, 64 floats). Each operand has a block stride (between the blocks
// of a repeat) and a repeat stride (between repeats), both in 32-byte blocks. Which elements of a
// repeat take part is the mask register: in normal mode it holds one bit per element of a repeat
// (128 bits); in counter mode its low 64 bits are the number of elements of the whole instruction,
// and the repeats follow from it. The count forms ("tensor's first n elements") are counter-mode
// instructions with contiguous strides.
//
// An instruction declares each operand (`VectorInstruction::operand`): the operand is checked to
// be a 32-byte aligned UB tensor whose allocation holds every element the strides and the mask
// reach. Then `run` reports the instruction and the byte ranges it reads and writes to the pipe
// model, and hands the maximal runs of active elements, contiguous in every operand, to its kernel,
// which computes each run as one Eigen expression; contiguous strides with a full mask make the
// whole instruction a single run.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// The mask argument of an instruction called with isSetMask = false: the mask register set by
// SetVectorMask is used instead.
constexpr uint64_t MASK_PLACEHOLDER = 0;

const int32_t DEFAULT_BLK_NUM = 8;
const int32_t DEFAULT_BLK_STRIDE = 1;
const uint8_t DEFAULT_REPEAT_STRIDE = 8;
const int32_t MAX_REPEAT_TIMES = 255;

struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
struct BinaryDefaultType {};

struct BinaryRepeatParams {
    __aicore__ BinaryRepeatParams() {}
    __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                                  const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                                  const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct UnaryRepeatParams {
    __aicore__ UnaryRepeatParams() {}
    __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                                 const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                                 const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn, const bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

inline VectorRegisters& vector_registers() { return current_block().vector; }

// Elements of T in a 32-byte block and in a 256-byte repeat.
template <typename T>
inline constexpr int64_t block_elements = AscendC::ONE_BLK_SIZE / sizeof(T);
template <typename T>
inline constexpr int64_t repeat_elements = AscendC::ONE_REPEAT_BYTE_SIZE / sizeof(T);

// The mask bits of the first `count` elements of a repeat (at most 128: the register's width).
inline std::array<uint64_t, 2> leading_mask_bits(uint64_t count) {
    if (count >= 128) return {~uint64_t(0), ~uint64_t(0)};
    if (count >= 64) return {~uint64_t(0), count == 64 ? 0 : (~uint64_t(0) >> (128 - count))};
    return {count == 0 ? 0 : (~uint64_t(0) >> (64 - count)), 0};
}

// The elements an instruction computes: `repeats` repeats of `per_repeat` element slots; in normal
// mode `bits` marks the active slots of every repeat, in counter mode the first `total` elements
// are active, repeat by repeat.
struct ActiveElements {
    int64_t per_repeat = 0;
    int64_t repeats = 0;
    bool counter = false;
    int64_t total = 0;
    std::array<uint64_t, 4> bits{};  // up to 256 slots (8-bit elements)

    bool active(int64_t slot) const { return (bits[slot / 64] >> (slot % 64)) & 1u; }
    bool full() const {
        if (counter) return true;
        for (int64_t slot = 0; slot < per_repeat; ++slot) {
            if (!active(slot)) return false;
        }
        return true;
    }
    // Active slots of repeat `repeat` (counter mode: a prefix of the repeat).
    int64_t counter_slots(int64_t repeat) const { return std::min(per_repeat, total - repeat * per_repeat); }
    // The last active slot of the last repeat, or -1 when nothing runs.
    int64_t last_slot() const {
        if (repeats == 0) return -1;
        if (counter) return counter_slots(repeats - 1) - 1;
        for (int64_t slot = per_repeat - 1; slot >= 0; --slot) {
            if (active(slot)) return slot;
        }
        return -1;
    }
};

// The elements of a high-dimensional instruction on elements of `width` bytes, from the mask
// register as it is now (the instruction's own mask was written into it first when isSetMask).
inline ActiveElements active_elements(int64_t width, int64_t repeat_time, const char* api) {
    const VectorRegisters& registers = vector_registers();
    ActiveElements active;
    active.per_repeat = AscendC::ONE_REPEAT_BYTE_SIZE / width;
    if (registers.counter_mode) {
        active.counter = true;
        active.total = static_cast<int64_t>(registers.mask[0]);
        active.repeats = (active.total + active.per_repeat - 1) / active.per_repeat;
        if (active.repeats > AscendC::MAX_REPEAT_TIMES) [[unlikely]] {
            fail_misuse(api, "counter mode asks for ", active.total, " elements: ", active.repeats,
                        " repeats of ", active.per_repeat, ", more than the vector unit's ",
                        AscendC::MAX_REPEAT_TIMES);
        }
        return active;
    }
    if (repeat_time < 0 || repeat_time > AscendC::MAX_REPEAT_TIMES) [[unlikely]] {
        fail_misuse(api, "repeatTime ", repeat_time, " is outside [0, ", AscendC::MAX_REPEAT_TIMES, "]");
    }
    active.repeats = repeat_time;
    // Each mask bit selects one element; 32-bit elements use the low 64 bits only, and 8-bit
    // elements select pairs.
    const int64_t slots = active.per_repeat;
    for (int64_t slot = 0; slot < slots; ++slot) {
        const int64_t bit = width == 1 ? slot / 2 : slot;
        if (width == 4 && bit >= 64) break;
        if ((registers.mask[bit / 64] >> (bit % 64)) & 1u) active.bits[slot / 64] |= uint64_t(1) << (slot % 64);
    }
    return active;
}

// Writes an instruction's own mask into the register (isSetMask = true). In counter mode the
// mask is the element count.
inline void set_instruction_mask(uint64_t mask, int64_t width) {
    VectorRegisters& registers = vector_registers();
    if (registers.counter_mode) {
        registers.mask[0] = mask;
        registers.mask[1] = 0;
        return;
    }
    const auto bits = leading_mask_bits(std::min<uint64_t>(mask, AscendC::ONE_REPEAT_BYTE_SIZE / width));
    registers.mask[0] = bits[0];
    registers.mask[1] = bits[1];
}

inline void set_instruction_mask(const uint64_t mask[], int64_t width) {
    VectorRegisters& registers = vector_registers();
    registers.mask[0] = mask[0];
    registers.mask[1] = (registers.counter_mode || width == 4) ? 0 : mask[1];
}

// How an instruction's operand moves through the UB.
struct Strides {
    int64_t block = 1;   // 32-byte blocks between the blocks of one repeat
    int64_t repeat = 8;  // 32-byte blocks between repeats
};

inline constexpr Strides contiguous_strides{1, 8};

// Whether an instruction reads or writes an operand.
enum class Access : uint8_t { read, write, read_write };

// The pipe model's view of `bytes` at `first` that `api` reads and/or writes through `role`, a
// range already checked against the operand's tensor. The range must also lie in the running
// block's UB: a LocalTensor built over a raw address may claim more than the UB holds.
inline Operand ub_range(const char* api, const char* role, Access access, const std::byte* first, uint64_t bytes) {
    const BlockContext& block = current_block();
    const std::byte* ub_end = block.ub + block.ub_bytes;
    if (first < block.ub || first > ub_end || bytes > static_cast<uint64_t>(ub_end - first)) [[unlikely]] {
        if (block.ub == nullptr) {
            fail_misuse(api, role, " is in the Unified Buffer, which this core (an AIC) does not have; guard the "
                        "vector code with ASCEND_IS_AIV");
        }
        fail_misuse(api, role, " covers ", bytes, " bytes at UB offset ", static_cast<int64_t>(first - block.ub),
                    ", outside the block's ", block.ub_bytes, "-byte Unified Buffer");
    }
    return Operand{first, bytes, block.ub, "UB", access != Access::read};
}

// A vector-pipe instruction touching one UB range, reported to the pipe model
// (canopy/kernel/pipes.h) for its race checks.
inline void access_ub(const char* api, const char* role, Access access, const std::byte* first, uint64_t bytes) {
    const Operand operand = ub_range(api, role, access, first, bytes);
    pipe_instruction(Pipe::V, api, &operand, 1);
}

// A 32-byte aligned UB tensor, used by `api` as `role`.
template <typename T>
inline void require_vector_tensor(const AscendC::LocalTensor<T>& tensor, const char* api, const char* role) {
    require_memory(tensor, AscendC::Hardware::UB, api, role);
    const auto address = reinterpret_cast<std::uintptr_t>(tensor.address());
    if (address % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
        fail_misuse(api, role, " starts ", address % AscendC::ONE_BLK_SIZE,
                    " bytes past a 32-byte boundary; vector operands must be 32-byte aligned");
    }
}

// One operand of an instruction: where element `slot` of repeat `repeat` lives.
template <typename T>
struct VectorOperand {
    T* base;
    Strides strides;

    // The byte offset of the element from `base` (computed apart from any pointer, so that an
    // operand's reach is known before its address is known to be valid).
    int64_t offset(int64_t repeat, int64_t slot) const {
        constexpr int64_t per_block = block_elements<T>;
        return repeat * strides.repeat * AscendC::ONE_BLK_SIZE + (slot / per_block) * strides.block * AscendC::ONE_BLK_SIZE +
               (slot % per_block) * int64_t(sizeof(T));
    }
    T* at(int64_t repeat, int64_t slot) const {
        return reinterpret_cast<T*>(reinterpret_cast<std::byte*>(base) + offset(repeat, slot));
    }
    // Whether the blocks of a repeat follow each other, and repeats each other.
    bool blocks_contiguous() const { return strides.block == 1; }
    bool repeats_contiguous(int64_t per_repeat) const {
        return strides.block == 1 && strides.repeat * int64_t(AscendC::ONE_BLK_SIZE) == per_repeat * int64_t(sizeof(T));
    }
};

// Checks an operand over the elements `active` reaches and reports its UB range.
// `range` receives the UB range reached (no bytes when nothing runs).
template <typename T>
inline VectorOperand<T> vector_operand(const char* api, const char* role, Access access,
                                       const AscendC::LocalTensor<T>& tensor, Strides strides,
                                       const ActiveElements& active, Operand& range) {
    require_vector_tensor(tensor, api, role);
    if (strides.block < 0 || strides.repeat < 0) [[unlikely]] {
        fail_misuse(api, role, " strides (block ", strides.block, ", repeat ", strides.repeat, ") must not be negative");
    }
    VectorOperand<T> operand{tensor.address(), strides};
    const int64_t last_slot = active.last_slot();
    if (last_slot < 0) return operand;
    // The highest element reached: the last active slot of the last repeat (offsets grow with both).
    const auto reach = static_cast<uint64_t>(operand.offset(active.repeats - 1, last_slot) + int64_t(sizeof(T)));
    const uint64_t held = uint64_t(tensor.GetSize()) * sizeof(T);
    if (reach > held) [[unlikely]] {
        fail_misuse(api, role, " reaches ", reach, " bytes (", active.repeats, " repeats, block stride ", strides.block,
                    ", repeat stride ", strides.repeat, ", last element ", last_slot, " of a repeat) but its ",
                    AscendC::PositionName(tensor.position()), " LocalTensor holds ", held, " bytes");
    }
    range = ub_range(api, role, access, reinterpret_cast<const std::byte*>(tensor.address()), reach);
    return operand;
}

// Calls `run(repeat, slot, length)` for every maximal run of active slots that is contiguous in
// every operand: within one repeat, split at the data block boundaries of operands whose blocks
// are strided. `per_block` is the smallest block (in elements) of any strided operand.
template <typename Run>
inline void for_each_run(const ActiveElements& active, bool blocks_contiguous, bool repeats_contiguous,
                         int64_t per_block, Run&& run) {
    if (active.repeats == 0) return;
    if (repeats_contiguous && active.full()) {
        const int64_t total = active.counter ? active.total : active.repeats * active.per_repeat;
        if (total > 0) run(0, 0, total);
        return;
    }
    for (int64_t repeat = 0; repeat < active.repeats; ++repeat) {
        const int64_t slots = active.counter ? active.counter_slots(repeat) : active.per_repeat;
        int64_t slot = 0;
        while (slot < slots) {
            if (!active.counter && !active.active(slot)) {
                ++slot;
                continue;
            }
            int64_t end = slot + 1;
            const int64_t limit = blocks_contiguous ? slots : std::min(slots, (slot / per_block + 1) * per_block);
            while (end < limit && (active.counter || active.active(end))) ++end;
            run(repeat, slot, end - slot);
            slot = end;
        }
    }
}

// An instruction over operands of possibly different element types; the repeat's element slots
// are those of the widest operand (`width` bytes).
class VectorInstruction {
public:
    VectorInstruction(const char* api, int64_t width, int64_t repeat_time)
        : api_(api), active_(active_elements(width, repeat_time, api)) {}

    // A count-form instruction: the first `count` elements, contiguous, whatever the mask register
    // holds; as on the NPU, the mask register is left reset and in normal mode.
    static VectorInstruction first_elements(const char* api, int64_t width, int64_t count) {
        if (count < 0) [[unlikely]] fail_misuse(api, "count ", count, " must not be negative");
        VectorInstruction instruction(api);
        instruction.active_.per_repeat = AscendC::ONE_REPEAT_BYTE_SIZE / width;
        instruction.active_.counter = true;
        instruction.active_.total = count;
        instruction.active_.repeats = (count + instruction.active_.per_repeat - 1) / instruction.active_.per_repeat;
        VectorRegisters& registers = vector_registers();
        registers.mask[0] = registers.mask[1] = ~uint64_t(0);
        registers.counter_mode = false;
        return instruction;
    }

    // An instruction whose every slot takes part whatever the mask register holds (the A2 ignores
    // the mask of Compare), `repeat_time` repeats.
    static VectorInstruction whole_repeats(const char* api, int64_t width, int64_t repeat_time) {
        if (repeat_time < 0 || repeat_time > AscendC::MAX_REPEAT_TIMES) [[unlikely]] {
            fail_misuse(api, "repeatTime ", repeat_time, " is outside [0, ", AscendC::MAX_REPEAT_TIMES, "]");
        }
        VectorInstruction instruction(api);
        instruction.active_.per_repeat = AscendC::ONE_REPEAT_BYTE_SIZE / width;
        instruction.active_.repeats = repeat_time;
        instruction.active_.bits = {~uint64_t(0), ~uint64_t(0), ~uint64_t(0), ~uint64_t(0)};
        return instruction;
    }

    template <typename T>
    VectorOperand<T> operand(const char* role, Access access, const AscendC::LocalTensor<T>& tensor,
                       Strides strides = contiguous_strides) {
        if (operands_ == kMaxOperands) [[unlikely]] fail_misuse(api_, "more than ", kMaxOperands, " operands");
        VectorOperand<T> declared = vector_operand(api_, role, access, tensor, strides, active_, ranges_.at[operands_++]);
        blocks_contiguous_ = blocks_contiguous_ && declared.blocks_contiguous();
        repeats_contiguous_ = repeats_contiguous_ && declared.repeats_contiguous(active_.per_repeat);
        if (!declared.blocks_contiguous()) per_block_ = std::min<int64_t>(per_block_, block_elements<T>);
        return declared;
    }

    // The destination's block stride 0 writes every block of a repeat over the first one.
    void require_dst_block_stride(int64_t stride) const {
        if (stride == 0) [[unlikely]] fail_misuse(api_, "dstBlkStride 0 is undefined on the vector unit");
    }

    const ActiveElements& active() const { return active_; }
    const char* api() const { return api_; }

    // Reports the instruction to the pipe model with all its declared operands.
    void issue() const { pipe_instruction(Pipe::V, api_, ranges_.at, operands_); }

    // The number of elements when the instruction is one contiguous run over every operand (its
    // kernel is called once, from element 0); -1 otherwise.
    int64_t contiguous_elements() const {
        if (!repeats_contiguous_ || !active_.full() || active_.repeats == 0) return -1;
        return active_.counter ? active_.total : active_.repeats * active_.per_repeat;
    }

    // Issues the instruction for an implementation that handles the deferred moves under its
    // operands itself (deferred_moves.h).
    void issue_deferred() {
        for (std::size_t i = 0; i < operands_; ++i) ranges_.at[i].deferred = true;
        issue();
    }

    // Issues the instruction, then computes it.
    template <typename Run>
    void run(Run&& run_elements) const {
        issue();
        for_each_run(active_, blocks_contiguous_, repeats_contiguous_, per_block_, run_elements);
    }

private:
    explicit VectorInstruction(const char* api) : api_(api) {}

    static constexpr std::size_t kMaxOperands = 4;

    const char* api_;
    ActiveElements active_;
    // Only the first operands_ are written and read: left uninitialised (zeroing all of them was a
    // share of a small instruction's cost worth measuring).
    union OperandSlots {
        OperandSlots() {}
        Operand at[kMaxOperands];
    } ranges_;
    std::size_t operands_ = 0;
    bool blocks_contiguous_ = true;
    bool repeats_contiguous_ = true;
    int64_t per_block_ = AscendC::ONE_REPEAT_BYTE_SIZE;
};

// The instruction of a high-dimensional call: its mask written first when isSetMask.
template <bool isSetMask, typename Mask>
inline VectorInstruction masked_instruction(const char* api, int64_t width, const Mask& mask, int64_t repeat_time) {
    if constexpr (isSetMask) set_instruction_mask(mask, width);
    return VectorInstruction(api, width, repeat_time);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

__aicore__ inline void SetMaskCount() { canopy::kernel::ascendc::vector_registers().counter_mode = true; }
__aicore__ inline void SetMaskNorm() { canopy::kernel::ascendc::vector_registers().counter_mode = false; }

__aicore__ inline void ResetMask() {
    auto& registers = canopy::kernel::ascendc::vector_registers();
    registers.mask[0] = registers.mask[1] = ~uint64_t(0);
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    auto& registers = canopy::kernel::ascendc::vector_registers();
    registers.mask[0] = maskLow;
    registers.mask[1] = maskHigh;
}

// Normal mode: the first `len` elements of every repeat; counter mode: `len` elements in all.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len) {
    auto& registers = canopy::kernel::ascendc::vector_registers();
    if constexpr (mode == MaskMode::COUNTER) {
        registers.mask[0] = static_cast<uint64_t>(len);
        registers.mask[1] = 0;
    } else {
        if (len < 0) [[unlikely]] canopy::kernel::ascendc::fail_misuse("SetVectorMask", "len ", len, " is negative");
        const auto bits = canopy::kernel::ascendc::leading_mask_bits(static_cast<uint64_t>(len));
        registers.mask[0] = bits[0];
        registers.mask[1] = sizeof(T) == 4 ? 0 : bits[1];
    }
}

}  // namespace AscendC
