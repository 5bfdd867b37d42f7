#pragma once
// Gathering on UB tiles: GatherMask (keep the elements a bit pattern selects, packed), Gather
// (element-wise byte offsets) and Gatherb (one 32-byte block per offset).
//
// GatherMask in normal mode runs repeatTimes repeats of 256 bytes of src0 and, as the A2 writes whole
// repeats, leaves the destination slots past the kept elements zero; in counter mode (reduceMode)
// each repeat takes `mask` elements and only the kept elements are written. A built-in pattern
// (1 to 7) is the same for every repeat; a pattern tensor is consumed bit by bit, each repeat
// starting src1RepeatStride blocks further on.
#include <cstdint>
#include <cstring>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
const GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;

struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

struct GatherRepeatParams {
    __aicore__ GatherRepeatParams() {}
    __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// Whether a built-in GatherMask pattern keeps element `slot` of a repeat.
inline bool builtin_pattern_keeps(uint8_t pattern, int64_t slot) {
    switch (pattern) {
        case 1: return slot % 2 == 0;
        case 2: return slot % 2 == 1;
        case 3:
        case 4:
        case 5:
        case 6: return slot % 4 == pattern - 3;
        default: return true;  // 7: every element
    }
}

// The shared body of both GatherMask forms: `keeps(repeat, slot)` says whether an element stays.
template <typename T, typename Keeps>
inline void gather_mask(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                        bool reduceMode, uint32_t mask, const AscendC::GatherMaskParams& params, uint64_t& rsvdCnt,
                        Keeps keeps) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "GatherMask works on 8, 16 and 32-bit elements");
    require_vector_tensor(dst, api, "dst");
    require_vector_tensor(src0, api, "src0");
    const int64_t repeats = params.repeatTimes;
    const int64_t per_repeat = reduceMode ? int64_t(mask) : repeat_elements<T>;
    if (reduceMode && mask == 0) [[unlikely]] fail_misuse(api, "counter mode (reduceMode) needs a mask of at least 1");
    const VectorOperand<T> source{src0.landed_address(), {params.src0BlockStride, params.src0RepeatStride}};
    if (repeats == 0) {
        rsvdCnt = 0;
        return;
    }
    const auto* first = reinterpret_cast<const std::byte*>(src0.landed_address());
    const auto reach = static_cast<uint64_t>(source.offset(repeats - 1, per_repeat - 1) + int64_t(sizeof(T)));
    if (reach > uint64_t(src0.GetSize()) * sizeof(T)) [[unlikely]] {
        fail_misuse(api, "src0 reaches ", reach, " bytes (", repeats, " repeats of ", per_repeat,
                    " elements) but its LocalTensor holds ", uint64_t(src0.GetSize()) * sizeof(T), " bytes");
    }
    access_ub(api, "src0", Access::read, first, reach);
    // Kept elements are packed into dst in order; src0 and dst may be the same tensor, and an
    // element is always read before its slot or an earlier one is written.
    const int64_t dst_slots = repeats * per_repeat;
    require_elements(dst, reduceMode ? 0 : dst_slots, api, "dst");
    T* out = dst.landed_address();
    int64_t kept = 0;
    for (int64_t repeat = 0; repeat < repeats; ++repeat) {
        for (int64_t slot = 0; slot < per_repeat; ++slot) {
            if (!keeps(repeat, slot)) continue;
            if (uint64_t(kept) >= dst.GetSize()) [[unlikely]] {
                fail_misuse(api, "dst: the kept elements overflow its ", dst.GetSize(), "-element LocalTensor");
            }
            out[kept++] = *source.at(repeat, slot);
        }
    }
    const int64_t written = reduceMode ? kept : dst_slots;
    for (int64_t slot = kept; slot < written; ++slot) out[slot] = T(0);
    access_ub(api, "dst", Access::write, reinterpret_cast<const std::byte*>(out), written * sizeof(T));
    rsvdCnt = static_cast<uint64_t>(kept);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(U) == sizeof(T), "the pattern's elements are as wide as src0's");
    require_vector_tensor(src1Pattern, "GatherMask", "src1Pattern");
    const int64_t per_repeat = reduceMode ? int64_t(mask) : repeat_elements<T>;
    const int64_t repeats = gatherMaskParams.repeatTimes;
    const int64_t stride_bits = int64_t(gatherMaskParams.src1RepeatStride) * AscendC::ONE_BLK_SIZE * 8;
    if (repeats > 0) {
        const int64_t last_bit = (repeats - 1) * stride_bits + per_repeat - 1;
        const int64_t bytes = last_bit / 8 + 1;
        require_elements(src1Pattern, (bytes + sizeof(U) - 1) / sizeof(U), "GatherMask", "src1Pattern");
        access_ub("GatherMask", "src1Pattern", Access::read,
                  reinterpret_cast<const std::byte*>(src1Pattern.landed_address()), bytes);
    }
    const auto* bits = reinterpret_cast<const uint8_t*>(src1Pattern.landed_address());
    gather_mask("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                [bits, stride_bits](int64_t repeat, int64_t slot) {
                    const int64_t bit = repeat * stride_bits + slot;
                    return ((bits[bit / 8] >> (bit % 8)) & 1u) != 0;
                });
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
    using namespace canopy::kernel::ascendc;
    if (src1Pattern < 1 || src1Pattern > 7) [[unlikely]] {
        fail_misuse("GatherMask", "src1Pattern ", int(src1Pattern), " is not a built-in pattern (1 to 7)");
    }
    gather_mask("GatherMask", dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                [src1Pattern](int64_t, int64_t slot) { return builtin_pattern_keeps(src1Pattern, slot); });
}

// dst[i] = the element at byte srcBaseOffset + srcOffset[i] of src, i < count.
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint32_t count) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather works on 16-bit and 32-bit elements");
    VectorInstruction instruction = VectorInstruction::first_elements("Gather", sizeof(uint32_t), count);
    const auto offsets = instruction.operand("srcOffset", Access::read, srcOffset);
    // A repeat takes 64 offsets, so a 16-bit dst advances by 4 blocks (128 bytes) per repeat, not 8.
    const int64_t dst_repeat_blocks = instruction.active().per_repeat * int64_t(sizeof(T)) / AscendC::ONE_BLK_SIZE;
    const auto out = instruction.operand("dst", Access::write, dst, {1, dst_repeat_blocks});
    require_vector_tensor(src, "Gather", "src");
    const uint64_t held = uint64_t(src.GetSize()) * sizeof(T);
    access_ub("Gather", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()), held);
    const auto* base = reinterpret_cast<const std::byte*>(src.landed_address());
    instruction.run([&](int64_t repeat, int64_t slot, int64_t length) {
        const uint32_t* offset = offsets.at(repeat, slot);
        T* target = out.at(repeat, slot);
        for (int64_t i = 0; i < length; ++i) {
            const uint64_t byte = uint64_t(srcBaseOffset) + offset[i];
            if (byte % sizeof(T) != 0 || byte + sizeof(T) > held) [[unlikely]] {
                fail_misuse("Gather", "element ", repeat * instruction.active().per_repeat + slot + i,
                            ": byte offset ", byte, " is not an element of src (", held, " bytes of ", sizeof(T),
                            "-byte elements)");
            }
            std::memcpy(static_cast<void*>(target + i), base + byte, sizeof(T));
        }
    });
}

// Block j of repeat k of dst = the 32 bytes at byte offset[k * 8 + j] of src.
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                               const GatherRepeatParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    require_vector_tensor(dst, "Gatherb", "dst");
    require_vector_tensor(src, "Gatherb", "src");
    require_vector_tensor(offset, "Gatherb", "offset");
    if (repeatTime == 0) return;
    const int64_t blocks = int64_t(repeatTime) * AscendC::DEFAULT_BLK_NUM;
    require_elements(offset, blocks, "Gatherb", "offset");
    const int64_t reach_blocks = (int64_t(repeatTime) - 1) * repeatParams.dstRepStride +
                                 (AscendC::DEFAULT_BLK_NUM - 1) * repeatParams.dstBlkStride + 1;
    const uint64_t dst_bytes = uint64_t(reach_blocks) * AscendC::ONE_BLK_SIZE;
    if (dst_bytes > uint64_t(dst.GetSize()) * sizeof(T)) [[unlikely]] {
        fail_misuse("Gatherb", "dst reaches ", dst_bytes, " bytes (", int(repeatTime), " repeats, block stride ",
                    int(repeatParams.dstBlkStride), ", repeat stride ", repeatParams.dstRepStride,
                    ") but its LocalTensor holds ", uint64_t(dst.GetSize()) * sizeof(T), " bytes");
    }
    const uint64_t held = uint64_t(src.GetSize()) * sizeof(T);
    access_ub("Gatherb", "offset", Access::read, reinterpret_cast<const std::byte*>(offset.landed_address()),
              blocks * sizeof(uint32_t));
    access_ub("Gatherb", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()), held);
    access_ub("Gatherb", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), dst_bytes);
    const auto* base = reinterpret_cast<const std::byte*>(src.landed_address());
    auto* target = reinterpret_cast<std::byte*>(dst.landed_address());
    for (int64_t repeat = 0; repeat < repeatTime; ++repeat) {
        for (int64_t block = 0; block < AscendC::DEFAULT_BLK_NUM; ++block) {
            const uint64_t byte = offset.landed_address()[repeat * AscendC::DEFAULT_BLK_NUM + block];
            if (byte % AscendC::ONE_BLK_SIZE != 0 || byte + AscendC::ONE_BLK_SIZE > held) [[unlikely]] {
                fail_misuse("Gatherb", "offset ", byte, " of block ", repeat * AscendC::DEFAULT_BLK_NUM + block,
                            " is not a 32-byte block of src (", held, " bytes)");
            }
            std::memcpy(target + (repeat * repeatParams.dstRepStride + block * repeatParams.dstBlkStride) *
                                     AscendC::ONE_BLK_SIZE,
                        base + byte, AscendC::ONE_BLK_SIZE);
        }
    }
}

}  // namespace AscendC
