#pragma once
// DataCopy with SliceInfo: a sub-block of an up-to-8-dimensional ND tensor between GM and the UB.
//
// Dimension 0 is the innermost. Along it a slice is N bursts of `burstLen` data blocks, `stride`
// elements apart, filling [startIndex, endIndex]; along each outer dimension it is every
// (stride + 1)-th index of [startIndex, endIndex]. The burst count and length come from the
// source's dimension 0 (the NPU's implementation reads only those), the placement of every burst
// from each side's own SliceInfo, the source's and destination's outer index sets being walked in
// step. The UB side moves whole data blocks: a UB stride that is not whole 32-byte blocks (which
// the NPU silently rounds down) is reported, as is every violated constraint of the API's
// documentation. Canopy's tensors carry no ShapeInfo, so shapeValue must be given.
#include <cstdint>
#include <cstring>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/data_copy.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/instruction.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace AscendC {

// At most this many dimensions in a slice.
constexpr int32_t K_MAX_DIM = 8;
// At most this many rows (outer index combinations) in one slice move: the NPU's implementation
// keeps their offsets in a fixed table of this size.
constexpr uint32_t MAX_SLICE_SIZE = 6 * 256;

// One dimension of a slice: indices in elements (dimension 0) or in rows of the dimension below.
struct SliceInfo {
    __aicore__ SliceInfo() {}
    __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
                         const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn) {}

    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;  // data blocks per burst along dimension 0; 1 elsewhere
    uint32_t shapeValue = 0;           // the dimension's length in its units
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// One side of a slice move, resolved to element offsets from its tensor's start.
struct SliceSide {
    uint64_t start = 0;                      // the first element of the first burst
    uint64_t row_pitch[AscendC::K_MAX_DIM];  // elements between selected indices of each outer dimension
    uint32_t rows[AscendC::K_MAX_DIM];       // selected indices of each outer dimension
    uint64_t burst_advance = 0;              // elements from one burst's start to the next along dimension 0
};

inline void check_slice_dimension(const AscendC::SliceInfo& s, uint32_t dim, uint32_t c0, const char* api,
                                  const char* role) {
    if (s.shapeValue == 0) [[unlikely]] {
        fail_misuse(api, role, "[", dim, "].shapeValue is 0: the shape then comes from the tensor's ShapeInfo, ",
                    "which Canopy's tensors do not carry; give every dimension's shapeValue");
    }
    if (s.startIndex > s.endIndex || s.endIndex > s.shapeValue) [[unlikely]] {
        fail_misuse(api, role, "[", dim, "] startIndex ", s.startIndex, " / endIndex ", s.endIndex,
                    " must satisfy startIndex <= endIndex <= shapeValue ", s.shapeValue);
    }
    const uint64_t span = uint64_t(s.endIndex) - s.startIndex + 1;
    if (dim == 0) {
        if (s.burstLen == 0) [[unlikely]] fail_misuse(api, role, "[0].burstLen is 0 data blocks");
        const uint64_t burst = uint64_t(s.burstLen) * c0;
        // endIndex - startIndex + 1 = (N - 1) * stride + N * burstLen * C0 for a whole N >= 1.
        if ((span + s.stride) % (burst + s.stride) != 0) [[unlikely]] {
            fail_misuse(api, role, "[0] spans ", span, " elements, which is not N bursts of burstLen ", s.burstLen,
                        " x ", c0, " elements ", s.stride, " elements apart");
        }
    } else {
        if (s.burstLen != 1) [[unlikely]] {
            fail_misuse(api, role, "[", dim, "].burstLen is ", s.burstLen, "; it must be 1 past dimension 0");
        }
        if ((span + s.stride) % (uint64_t(s.stride) + 1) != 0) [[unlikely]] {
            fail_misuse(api, role, "[", dim, "] spans ", span, " indices, which is not every ", s.stride + 1,
                        "-th index from startIndex to endIndex");
        }
    }
}

// The element offsets of one side; `ub` sides must keep every burst on a data block boundary.
inline SliceSide resolve_slice(const AscendC::SliceInfo info[], uint32_t dims, uint32_t element_bytes, bool ub,
                               const char* api, const char* role) {
    const uint32_t c0 = AscendC::ONE_BLK_SIZE / element_bytes;
    SliceSide side;
    uint64_t pitch = 1;  // elements per index of the current dimension
    for (uint32_t dim = 0; dim < dims; ++dim) {
        const AscendC::SliceInfo& s = info[dim];
        check_slice_dimension(s, dim, c0, api, role);
        side.start += uint64_t(s.startIndex) * pitch;
        if (dim == 0) {
            side.burst_advance = uint64_t(s.burstLen) * c0 + s.stride;
        } else {
            side.row_pitch[dim] = (uint64_t(s.stride) + 1) * pitch;
            side.rows[dim] = (uint64_t(s.endIndex) - s.startIndex + 1 + s.stride) / (uint64_t(s.stride) + 1);
        }
        pitch *= s.shapeValue;
    }
    if (ub) {
        if ((uint64_t(info[0].stride) * element_bytes) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
            fail_misuse(api, role, "[0].stride ", info[0].stride, " elements (", uint64_t(info[0].stride) * element_bytes,
                        " bytes) is not whole 32-byte data blocks, as the UB side's bursts must be");
        }
        if ((side.start * element_bytes) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
            fail_misuse(api, role, " starts ", side.start, " elements (", side.start * element_bytes,
                        " bytes) into the UB tensor, off a 32-byte boundary; UB addresses must be 32-byte aligned");
        }
        for (uint32_t dim = 1; dim < dims; ++dim) {
            if ((side.row_pitch[dim] * element_bytes) % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
                fail_misuse(api, role, "[", dim, "] steps ", side.row_pitch[dim], " elements (",
                            side.row_pitch[dim] * element_bytes,
                            " bytes) between its rows in the UB tensor, off a 32-byte boundary; UB addresses must "
                            "be 32-byte aligned");
            }
        }
    }
    return side;
}

struct SlicePlan {
    SliceSide dst;
    SliceSide src;
    uint64_t bursts = 0;      // per row
    uint64_t burst_elems = 0;
    uint64_t rows = 1;        // outer index combinations
    uint64_t dst_extent = 0;  // elements from the tensor's start past the last one touched
    uint64_t src_extent = 0;
};

// The UB tensor itself must start on a data block.
template <typename T>
inline void require_block_aligned(const AscendC::LocalTensor<T>& tensor, const char* api, const char* role) {
    const auto offset = uint64_t(reinterpret_cast<const std::byte*>(tensor.landed_address()) -
                                 local_memory(AscendC::Hardware::UB).base);
    if (offset % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
        fail_misuse(api, role, " starts at byte ", offset, " of the UB; UB addresses must be 32-byte aligned");
    }
}

inline uint64_t slice_row_offset(const SliceSide& side, uint32_t dims, uint64_t row) {
    uint64_t offset = side.start;
    for (uint32_t dim = 1; dim < dims; ++dim) {  // dimension 1 varies fastest
        offset += (row % side.rows[dim]) * side.row_pitch[dim];
        row /= side.rows[dim];
    }
    return offset;
}

template <typename T>
inline SlicePlan plan_slice(const AscendC::SliceInfo dstSliceInfo[],
                            const AscendC::SliceInfo srcSliceInfo[], uint32_t dimValue, bool dst_is_ub,
                            const char* api) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "DataCopy with SliceInfo moves 1-, 2- and 4-byte elements on the A2");
    if (dstSliceInfo == nullptr || srcSliceInfo == nullptr) [[unlikely]] {
        fail_misuse(api, dstSliceInfo == nullptr ? "dstSliceInfo" : "srcSliceInfo", " is null");
    }
    if (dimValue == 0 || dimValue > uint32_t(AscendC::K_MAX_DIM)) [[unlikely]] {
        fail_misuse(api, "dimValue ", dimValue, " is outside 1..", AscendC::K_MAX_DIM);
    }
    for (uint32_t dim = 0; dim < dimValue; ++dim) {
        if (dstSliceInfo[dim].burstLen != srcSliceInfo[dim].burstLen) [[unlikely]] {
            fail_misuse(api, "dstSliceInfo[", dim, "].burstLen ", dstSliceInfo[dim].burstLen,
                        " differs from srcSliceInfo[", dim, "].burstLen ", srcSliceInfo[dim].burstLen);
        }
    }
    SlicePlan plan;
    plan.dst = resolve_slice(dstSliceInfo, dimValue, sizeof(T), dst_is_ub, api, "dstSliceInfo");
    plan.src = resolve_slice(srcSliceInfo, dimValue, sizeof(T), !dst_is_ub, api, "srcSliceInfo");
    const AscendC::SliceInfo& s0 = srcSliceInfo[0];
    const AscendC::SliceInfo& d0 = dstSliceInfo[0];
    plan.burst_elems = uint64_t(s0.burstLen) * (AscendC::ONE_BLK_SIZE / sizeof(T));
    plan.bursts = (uint64_t(s0.endIndex) - s0.startIndex + 1 + s0.stride) / (plan.burst_elems + s0.stride);
    const uint64_t dst_bursts = (uint64_t(d0.endIndex) - d0.startIndex + 1 + d0.stride) / (plan.burst_elems + d0.stride);
    if (dst_bursts != plan.bursts) [[unlikely]] {
        fail_misuse(api, "dstSliceInfo[0] holds ", dst_bursts, " bursts and srcSliceInfo[0] ", plan.bursts,
                    "; the two slices must have the same shape");
    }
    for (uint32_t dim = 1; dim < dimValue; ++dim) {
        if (plan.dst.rows[dim] != plan.src.rows[dim]) [[unlikely]] {
            fail_misuse(api, "dstSliceInfo[", dim, "] selects ", plan.dst.rows[dim], " indices and srcSliceInfo[",
                        dim, "] ", plan.src.rows[dim], "; the two slices must have the same shape");
        }
        plan.rows *= plan.src.rows[dim];
    }
    if (plan.rows > AscendC::MAX_SLICE_SIZE) [[unlikely]] {
        fail_misuse(api, "the slice has ", plan.rows, " rows of dimension 0, more than ", AscendC::MAX_SLICE_SIZE);
    }
    // Offsets grow with every index, so the last burst of the last row ends each extent.
    const uint64_t last_burst = (plan.bursts - 1);
    plan.dst_extent = slice_row_offset(plan.dst, dimValue, plan.rows - 1) + last_burst * plan.dst.burst_advance +
                      plan.burst_elems;
    plan.src_extent = slice_row_offset(plan.src, dimValue, plan.rows - 1) + last_burst * plan.src.burst_advance +
                      plan.burst_elems;
    return plan;
}

// Hands `move` each row's destination and source offsets.
template <typename Move>
inline void move_slice(const SlicePlan& plan, uint32_t dimValue, Move move) {
    for (uint64_t row = 0; row < plan.rows; ++row) {
        move(slice_row_offset(plan.dst, dimValue, row), slice_row_offset(plan.src, dimValue, row));
    }
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// GM -> UB (VECIN): dstSliceInfo places the bursts in the UB tensor, srcSliceInfo picks them from GM.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
    using namespace canopy::kernel::ascendc;
    const char* api = "DataCopy(SliceInfo)";
    if (dst.memory() != Hardware::UB) [[unlikely]] fail_no_path(api, TPosition::GM, dst.position());
    require_block_aligned(dst, api, "dst");
    const SlicePlan plan = plan_slice<T>(dstSliceInfo, srcSliceInfo, dimValue, true, api);
    const uint64_t burst_bytes = plan.burst_elems * sizeof(T);
    require_local_bytes(dst, plan.dst_extent * sizeof(T), api, "dst");
    const T* from = src.CheckedSpan(0, plan.src_extent, false, api);
    issue(Pipe::MTE2, api, writes(dst, plan.dst_extent * sizeof(T)));
    T* to = dst.landed_address();
    move_slice(plan, dimValue, [&](uint64_t dst_offset, uint64_t src_offset) {
        copy_bursts(reinterpret_cast<std::byte*>(to + dst_offset), reinterpret_cast<const std::byte*>(from + src_offset),
                    plan.bursts, burst_bytes, plan.src.burst_advance * sizeof(T),
                    plan.dst.burst_advance * sizeof(T));
    });
}

// UB (VECOUT) -> GM: dstSliceInfo places the bursts in GM, srcSliceInfo picks them from the UB tensor.
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
    using namespace canopy::kernel::ascendc;
    const char* api = "DataCopy(SliceInfo)";
    if (src.memory() != Hardware::UB) [[unlikely]] fail_no_path(api, src.position(), TPosition::GM);
    require_block_aligned(src, api, "src");
    const SlicePlan plan = plan_slice<T>(dstSliceInfo, srcSliceInfo, dimValue, false, api);
    const uint64_t burst_bytes = plan.burst_elems * sizeof(T);
    require_local_bytes(src, plan.src_extent * sizeof(T), api, "src");
    T* to = dst.CheckedSpan(0, plan.dst_extent, true, api);
    issue(Pipe::MTE3, api, reads(src, plan.src_extent * sizeof(T)));
    const T* from = src.landed_address();
    move_slice(plan, dimValue, [&](uint64_t dst_offset, uint64_t src_offset) {
        store_bursts(to + dst_offset, from + src_offset, plan.bursts, burst_bytes,
                     plan.src.burst_advance * sizeof(T), plan.dst.burst_advance * sizeof(T), api);
    });
}

}  // namespace AscendC
