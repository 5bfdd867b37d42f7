#pragma once
// DataCopy and DataCopyPad: the MTE moves between global memory and the core's local memories.
//
// DataCopy moves whole 32-byte data blocks: a byte count that is not a multiple of 32 is a misuse
// (the NPU silently rounds it down; here it is reported). DataCopyPad moves any byte count and pads
// each burst in the UB out to 32 bytes. The GM side of every move is checked against the
// GlobalTensor's SetGlobalBuffer size (507042 on reads, 507043 on writes), the local side against
// the LocalTensor's length (507015).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/atomic.h"
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/instruction.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace AscendC {

// Repeated block moves: `blockCount` bursts of `blockLen` data blocks (32 bytes), the gaps between
// bursts in data blocks too.
struct DataCopyParams {
    __aicore__ DataCopyParams() {}
    __aicore__ DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                              const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}

    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union {
        uint16_t srcGap = 0;
        uint16_t srcStride;
    };
    union {
        uint16_t dstGap = 0;
        uint16_t dstStride;
    };
};

// DataCopyPad's bursts: `blockLen` in bytes; the GM-side stride in bytes, the UB-side stride in
// data blocks (32 bytes).
struct DataCopyExtParams {
    __aicore__ DataCopyExtParams() {}
    __aicore__ DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                                 const uint32_t dstStrideIn, const uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}

    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

// How DataCopyPad fills the UB around each burst: `leftPadding` / `rightPadding` elements of
// `paddingValue` when `isPad`, of the SetPadValue value otherwise.
template <typename T>
struct DataCopyPadExtParams {
    __aicore__ DataCopyPadExtParams() {}
    // The pad value is any arithmetic value converted to T: samples write {true, 0, 0, 0} for half,
    // which the NPU compiler's native types accept and Eigen::bfloat16 only explicitly.
    template <typename Value, typename = std::enable_if_t<std::is_arithmetic_v<Value> || std::is_same_v<Value, T>>>
    __aicore__ DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                    Value padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue),
          paddingValue(static_cast<T>(padValue)) {}

    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
};

// The older DataCopyPad parameters (paired with DataCopyParams whose blockLen is then in bytes).
struct DataCopyPadParams {
    __aicore__ DataCopyPadParams() {}
    __aicore__ DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                 const uint64_t padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}

    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

// ND -> NZ conversion on the way from GM to L1: `ndNum` matrices of `nValue` rows x `dValue`
// columns (source rows `srcDValue` elements apart) become column blocks of C0 = 32 / sizeof(T)
// elements; `dstNzC0Stride` (in 32-byte units) separates column blocks, `dstNzNStride` rows. For
// int4b_t the column counts and strides are in bytes, pairs of elements, as the move sees int8.
struct Nd2NzParams {
    __aicore__ Nd2NzParams() {}
    __aicore__ Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                           const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn,
                           const uint16_t dstNzC0StrideIn, const uint16_t dstNzNStrideIn,
                           const uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}

    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// L1 -> bias table / fixpipe buffer (cube_copy.h).
template <typename T, typename U>
void copy_into_cube_buffer(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                           const AscendC::DataCopyParams& p);

// The value DataCopyPad pads with when isPad is false: a core register set by SetPadValue.
inline uint64_t& pad_value_register() { return core_registers().pad_value; }

// The pipe of a move between two local memories on the A2.
inline Pipe local_to_local_pipe(AscendC::Hardware from) {
    if (from == AscendC::Hardware::UB) return Pipe::V;  // UB -> UB; UB -> L1 leaves through MTE3
    return Pipe::MTE1;                                   // L1 -> UB
}
inline Pipe local_move_pipe(AscendC::Hardware from, AscendC::Hardware to) {
    if (from == AscendC::Hardware::UB && to == AscendC::Hardware::L1) return Pipe::MTE3;
    return local_to_local_pipe(from);
}

// The MTE paths of the A2 that DataCopy can take between local memories and GM.
inline bool gm_to_local_path(AscendC::Hardware to) {
    return to == AscendC::Hardware::UB || to == AscendC::Hardware::L1;
}
inline bool local_to_gm_path(AscendC::Hardware from) {
    return from == AscendC::Hardware::UB || from == AscendC::Hardware::L1;
}
inline bool local_to_local_path(AscendC::Hardware from, AscendC::Hardware to) {
    using AscendC::Hardware;
    return (from == Hardware::UB && (to == Hardware::UB || to == Hardware::L1)) ||
           (from == Hardware::L1 && to == Hardware::UB);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_no_path(const char* api, AscendC::TPosition from,
                                                                 AscendC::TPosition to) {
    fail_misuse(api, "the A2 has no data path from ", AscendC::PositionName(from), " (",
                AscendC::HardwareName(AscendC::GetPhyType(from)), ") to ", AscendC::PositionName(to), " (",
                AscendC::HardwareName(AscendC::GetPhyType(to)), ")");
}

// DataCopy's count must make whole data blocks.
template <typename T>
inline void require_whole_blocks(uint64_t count, const char* api) {
    if ((count * sizeof(T)) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
        fail_misuse(api, count, " elements x ", sizeof(T), " bytes = ", count * sizeof(T),
                    " bytes is not a multiple of 32 bytes (DataCopyPad moves unaligned lengths)");
    }
}

// Bytes from the first byte of the first burst to the last byte of the last burst.
inline uint64_t burst_extent(uint64_t count, uint64_t burst_bytes, uint64_t advance_bytes) {
    return count == 0 ? 0 : (count - 1) * advance_bytes + burst_bytes;
}

// Copies `count` bursts of `burst_bytes`, `src_advance` / `dst_advance` bytes apart.
inline void copy_bursts(std::byte* dst, const std::byte* src, uint64_t count, uint64_t burst_bytes,
                        uint64_t src_advance, uint64_t dst_advance) {
    if (src_advance == burst_bytes && dst_advance == burst_bytes) {
        std::memcpy(dst, src, count * burst_bytes);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_advance, src + i * src_advance, burst_bytes);
}

// Writes `count` bursts of `burst_bytes` into GM under the core's atomic mode.
template <typename T>
inline void store_bursts(T* dst, const T* src, uint64_t count, uint64_t burst_bytes, uint64_t src_advance,
                         uint64_t dst_advance, const char* api) {
    auto* to = reinterpret_cast<std::byte*>(dst);
    const auto* from = reinterpret_cast<const std::byte*>(src);
    if (core_registers().atomic_operation == 0) {
        copy_bursts(to, from, count, burst_bytes, src_advance, dst_advance);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) {
        store_to_gm(reinterpret_cast<T*>(to + i * dst_advance), reinterpret_cast<const T*>(from + i * src_advance),
                    burst_bytes / sizeof(T), api);
    }
}

// The local side of a move must fit the LocalTensor.
template <typename T>
inline void require_local_bytes(const AscendC::LocalTensor<T>& tensor, uint64_t bytes, const char* api,
                                const char* role) {
    if (bytes > uint64_t(tensor.GetSize()) * sizeof(T)) [[unlikely]] {
        fail_misuse(api, "the move spans ", bytes, " bytes of ", role, ", a ", AscendC::PositionName(tensor.position()),
                    " LocalTensor of ", tensor.GetSize(), " elements (", uint64_t(tensor.GetSize()) * sizeof(T),
                    " bytes)");
    }
}

template <typename T>
inline void fill_elements(std::byte* at, uint32_t count, T value) {
    T* first = reinterpret_cast<T*>(at);
    for (uint32_t i = 0; i < count; ++i) first[i] = value;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// ---- Level 2: `count` contiguous elements ---------------------------------------------------

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
    using namespace canopy::kernel::ascendc;
    if (!gm_to_local_path(dst.memory())) [[unlikely]] fail_no_path("DataCopy", TPosition::GM, dst.position());
    require_whole_blocks<T>(count, "DataCopy");
    require_elements(dst, count, "DataCopy", "dst");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    if (dst.memory() == Hardware::UB) {
        // MTE2 lands the bytes when something needs them (deferred_moves.h); the stores they must
        // see land before them then.
        const T* from = src.BoundedSpan(0, count, false, "DataCopy");
        issue(Pipe::MTE2, "DataCopy", deferred(writes(dst, bytes)));
        canopy::kernel::defer_copy_in(dst.address(), from, bytes);
        return;
    }
    const T* from = src.CheckedSpan(0, count, false, "DataCopy");
    issue(Pipe::MTE2, "DataCopy", writes(dst, bytes));
    std::memcpy(dst.address(), from, bytes);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    using namespace canopy::kernel::ascendc;
    if (!local_to_gm_path(src.memory())) [[unlikely]] fail_no_path("DataCopy", src.position(), TPosition::GM);
    require_whole_blocks<T>(count, "DataCopy");
    require_elements(src, count, "DataCopy", "src");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    // Bytes a deferred move has not landed go to GM straight from its sources (deferred_moves.h).
    if (canopy::kernel::deferred_move_count != 0 && core_registers().atomic_operation == 0) {
        T* to = dst.BoundedSpan(0, count, true, "DataCopy");
        issue(Pipe::MTE3, "DataCopy", deferred(reads(src, bytes)));
        if (canopy::kernel::store_deferred(to, src.address(), bytes)) return;
        canopy::kernel::land_deferred_moves(src.address(), bytes);
        store_to_gm(to, src.address(), count, "DataCopy");
        return;
    }
    T* to = dst.CheckedSpan(0, count, true, "DataCopy");
    issue(Pipe::MTE3, "DataCopy", reads(src, bytes));
    store_to_gm(to, src.address(), count, "DataCopy");
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    using namespace canopy::kernel::ascendc;
    if (!local_to_local_path(src.memory(), dst.memory())) [[unlikely]] {
        fail_no_path("DataCopy", src.position(), dst.position());
    }
    require_whole_blocks<T>(count, "DataCopy");
    require_elements(src, count, "DataCopy", "src");
    require_elements(dst, count, "DataCopy", "dst");
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    issue(local_move_pipe(src.memory(), dst.memory()), "DataCopy", reads(src, bytes), writes(dst, bytes));
    std::memmove(dst.address(), src.address(), std::size_t(count) * sizeof(T));
}

// ---- Level 0: bursts of whole data blocks ---------------------------------------------------

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const DataCopyParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    if (!gm_to_local_path(dst.memory())) [[unlikely]] fail_no_path("DataCopy", TPosition::GM, dst.position());
    const uint64_t burst = uint64_t(repeatParams.blockLen) * ONE_BLK_SIZE;
    const uint64_t src_advance = burst + uint64_t(repeatParams.srcGap) * ONE_BLK_SIZE;
    const uint64_t dst_advance = burst + uint64_t(repeatParams.dstGap) * ONE_BLK_SIZE;
    const uint64_t count = burst == 0 ? 0 : repeatParams.blockCount;
    require_local_bytes(dst, burst_extent(count, burst, dst_advance), "DataCopy", "dst");
    const T* from = src.CheckedSpan(0, burst_extent(count, burst, src_advance) / sizeof(T), false, "DataCopy");
    issue(Pipe::MTE2, "DataCopy", writes(dst, burst_extent(count, burst, dst_advance)));
    copy_bursts(reinterpret_cast<std::byte*>(dst.address()), reinterpret_cast<const std::byte*>(from), count,
                burst, src_advance, dst_advance);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    if (!local_to_gm_path(src.memory())) [[unlikely]] fail_no_path("DataCopy", src.position(), TPosition::GM);
    const uint64_t burst = uint64_t(repeatParams.blockLen) * ONE_BLK_SIZE;
    const uint64_t src_advance = burst + uint64_t(repeatParams.srcGap) * ONE_BLK_SIZE;
    const uint64_t dst_advance = burst + uint64_t(repeatParams.dstGap) * ONE_BLK_SIZE;
    const uint64_t count = burst == 0 ? 0 : repeatParams.blockCount;
    require_local_bytes(src, burst_extent(count, burst, src_advance), "DataCopy", "src");
    T* to = dst.CheckedSpan(0, burst_extent(count, burst, dst_advance) / sizeof(T), true, "DataCopy");
    issue(Pipe::MTE3, "DataCopy", reads(src, burst_extent(count, burst, src_advance)));
    store_bursts(to, src.address(), count, burst, src_advance, dst_advance, "DataCopy");
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const DataCopyParams& repeatParams) {
    using namespace canopy::kernel::ascendc;
    if (dst.memory() == Hardware::BIAS || dst.memory() == Hardware::FIXBUF) {
        return copy_into_cube_buffer(dst, src, repeatParams);  // cube_copy.h: other units
    }
    if (!local_to_local_path(src.memory(), dst.memory())) [[unlikely]] {
        fail_no_path("DataCopy", src.position(), dst.position());
    }
    const uint64_t burst = uint64_t(repeatParams.blockLen) * ONE_BLK_SIZE;
    const uint64_t src_advance = burst + uint64_t(repeatParams.srcGap) * ONE_BLK_SIZE;
    const uint64_t dst_advance = burst + uint64_t(repeatParams.dstGap) * ONE_BLK_SIZE;
    const uint64_t count = burst == 0 ? 0 : repeatParams.blockCount;
    require_local_bytes(src, burst_extent(count, burst, src_advance), "DataCopy", "src");
    require_local_bytes(dst, burst_extent(count, burst, dst_advance), "DataCopy", "dst");
    issue(local_move_pipe(src.memory(), dst.memory()), "DataCopy", reads(src, burst_extent(count, burst, src_advance)),
          writes(dst, burst_extent(count, burst, dst_advance)));
    copy_bursts(reinterpret_cast<std::byte*>(dst.address()), reinterpret_cast<const std::byte*>(src.address()),
                count, burst, src_advance, dst_advance);
}

// ---- GM (ND) -> L1 (NZ) -----------------------------------------------------------------------

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams) {
    using namespace canopy::kernel::ascendc;
    constexpr uint64_t c0 = ONE_BLK_SIZE / sizeof(T);  // elements per column block row
    if (dst.memory() != Hardware::L1) [[unlikely]] fail_no_path("DataCopy(Nd2Nz)", TPosition::GM, dst.position());
    const Nd2NzParams& p = intriParams;
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    if constexpr (packs_nibbles<T>) {
        // The move sees int4 data as its bytes: every count and stride of the parameters is in bytes
        // (pairs of elements), so it is the int8 move over the same memory.
        const uint64_t src_bytes = uint64_t(p.ndNum - 1) * p.srcNdMatrixStride +
                                   uint64_t(p.nValue - 1) * p.srcDValue + p.dValue;
        GlobalTensor<int8_t> bytes;
        bytes.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(src.CheckedSpan(0, 2 * src_bytes, false,
                                                                                 "DataCopy(Nd2Nz)")));
        DataCopy(dst.template ReinterpretCast<int8_t>(), bytes, p);
        return;
    }
    const uint64_t column_blocks = (uint64_t(p.dValue) + c0 - 1) / c0;
    const uint64_t c0_stride = uint64_t(p.dstNzC0Stride) * c0;  // elements between column blocks
    const uint64_t row_stride = uint64_t(p.dstNzNStride) * c0;  // elements between rows of a block
    // Extents, checked once: the last element read from GM and the last written to L1.
    const uint64_t src_extent = uint64_t(p.ndNum - 1) * p.srcNdMatrixStride + uint64_t(p.nValue - 1) * p.srcDValue +
                                p.dValue;
    const uint64_t dst_extent = uint64_t(p.ndNum - 1) * p.dstNzMatrixStride + (column_blocks - 1) * c0_stride +
                                uint64_t(p.nValue - 1) * row_stride + c0;
    require_elements(dst, int64_t(dst_extent), "DataCopy(Nd2Nz)", "dst");
    const T* from = src.CheckedSpan(0, src_extent, false, "DataCopy(Nd2Nz)");
    issue(Pipe::MTE2, "DataCopy(Nd2Nz)", writes(dst, dst_extent * sizeof(T)));
    T* to = dst.address();
    for (uint64_t matrix = 0; matrix < p.ndNum; ++matrix) {
        const T* src_matrix = from + matrix * p.srcNdMatrixStride;
        T* dst_matrix = to + matrix * p.dstNzMatrixStride;
        for (uint64_t block = 0; block < column_blocks; ++block) {
            const uint64_t columns = std::min<uint64_t>(c0, p.dValue - block * c0);
            T* dst_block = dst_matrix + block * c0_stride;
            const T* src_block = src_matrix + block * c0;
            for (uint64_t row = 0; row < p.nValue; ++row) {
                T* dst_row = dst_block + row * row_stride;
                std::memcpy(dst_row, src_block + row * p.srcDValue, columns * sizeof(T));
                // The part of the last column block past dValue is zero-filled.
                for (uint64_t column = columns; column < c0; ++column) dst_row[column] = T(0);
            }
        }
    }
}

// ---- DataCopyPad: any byte count, padded to 32 bytes in the UB ----------------------------------

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "DataCopyPad";
    if (dst.memory() != Hardware::UB) [[unlikely]] fail_no_path(api, TPosition::GM, dst.position());
    const DataCopyExtParams& p = dataCopyParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;  // a NOP on the A2
    if (p.blockLen % sizeof(T) != 0) [[unlikely]] {
        fail_misuse(api, "blockLen ", p.blockLen, " bytes is not a multiple of the element size ", sizeof(T));
    }
    const uint64_t left_bytes = uint64_t(padParams.leftPadding) * sizeof(T);
    const uint64_t right_bytes = uint64_t(padParams.rightPadding) * sizeof(T);
    if (left_bytes > ONE_BLK_SIZE || right_bytes > ONE_BLK_SIZE) [[unlikely]] {
        fail_misuse(api, "leftPadding ", int(padParams.leftPadding), " / rightPadding ", int(padParams.rightPadding),
                    " elements exceed one 32-byte data block");
    }
    const uint64_t ub_burst = align_up(left_bytes + p.blockLen + right_bytes, ONE_BLK_SIZE);
    const uint64_t src_advance = uint64_t(p.blockLen) + p.srcStride;
    const uint64_t dst_advance = ub_burst + uint64_t(p.dstStride) * ONE_BLK_SIZE;
    require_local_bytes(dst, burst_extent(p.blockCount, ub_burst, dst_advance), api, "dst");
    const std::byte* from = reinterpret_cast<const std::byte*>(
        src.CheckedSpan(0, burst_extent(p.blockCount, p.blockLen, src_advance) / sizeof(T), false, api));
    T pad = padParams.paddingValue;
    if (!padParams.isPad) std::memcpy(static_cast<void*>(&pad), &pad_value_register(), sizeof(T));
    issue(Pipe::MTE2, api, writes(dst, burst_extent(p.blockCount, ub_burst, dst_advance)));
    std::byte* to = reinterpret_cast<std::byte*>(dst.address());
    for (uint64_t i = 0; i < p.blockCount; ++i) {
        std::byte* burst = to + i * dst_advance;
        fill_elements(burst, padParams.leftPadding, pad);
        std::memcpy(burst + left_bytes, from + i * src_advance, p.blockLen);
        fill_elements(burst + left_bytes + p.blockLen, padParams.rightPadding, pad);
    }
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "DataCopyPad";
    if (src.memory() != Hardware::UB) [[unlikely]] fail_no_path(api, src.position(), TPosition::GM);
    const DataCopyExtParams& p = dataCopyParams;
    if (p.blockCount == 0 || p.blockLen == 0) return;  // a NOP on the A2
    if (p.blockLen % sizeof(T) != 0) [[unlikely]] {
        fail_misuse(api, "blockLen ", p.blockLen, " bytes is not a multiple of the element size ", sizeof(T));
    }
    const uint64_t ub_burst = align_up(p.blockLen, ONE_BLK_SIZE);
    const uint64_t src_advance = ub_burst + uint64_t(p.srcStride) * ONE_BLK_SIZE;
    const uint64_t dst_advance = uint64_t(p.blockLen) + p.dstStride;
    require_local_bytes(src, burst_extent(p.blockCount, p.blockLen, src_advance), api, "src");
    T* to = dst.CheckedSpan(0, burst_extent(p.blockCount, p.blockLen, dst_advance) / sizeof(T), true, api);
    issue(Pipe::MTE3, api, reads(src, burst_extent(p.blockCount, p.blockLen, src_advance)));
    store_bursts(to, src.address(), p.blockCount, p.blockLen, src_advance, dst_advance, api);
}

// The older parameter shapes: DataCopyParams with blockLen in bytes.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams) {
    T pad_value{};
    std::memcpy(static_cast<void*>(&pad_value), &padParams.paddingValue,
                sizeof(T) < sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
    DataCopyPad(dst, src,
                DataCopyExtParams(dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                                  dataCopyParams.dstStride, 0),
                DataCopyPadExtParams<T>(padParams.isPad, padParams.leftPadding, padParams.rightPadding, pad_value));
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams) {
    DataCopyPad(dst, src,
                DataCopyExtParams(dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                                  dataCopyParams.dstStride, 0));
}

// The value DataCopyPad pads with when its padParams.isPad is false.
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue) {
    uint64_t bits = 0;
    std::memcpy(&bits, &paddingValue, sizeof(T) < sizeof(bits) ? sizeof(T) : sizeof(bits));
    canopy::kernel::ascendc::pad_value_register() = bits;
}

}  // namespace AscendC

#include "canopy/kernel/ascendc/cube_copy.h"
#include "canopy/kernel/ascendc/data_copy_slice.h"
