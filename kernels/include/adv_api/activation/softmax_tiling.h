#pragma once
// The SoftMax family's host functions (CANN's adv_api/activation/softmax_tiling.h) with the A2's
// (dav-2201) rules: the temporary buffer each operator needs, in floats per row (a block of the
// reduced values, the row, 64 floats of reduction space; some operators more), and the tiling that
// splits the rows into blocks that fit a given buffer. The kernels check the same minimum.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "adv_api/activation/softmax_tilingdata.h"
#include "adv_api/utils/types.h"
#include "canopy/adv/host_check.h"

namespace canopy::adv::sizes {

inline constexpr uint32_t softmax_block_bytes = 32;
inline constexpr uint32_t softmax_unit = 64;       // floats of reduction space
inline constexpr uint32_t softmax_basic_rows = 8;  // rows of a basic block
inline constexpr uint32_t softmax_basic_min = 256;

inline constexpr uint32_t per_block(uint32_t typeSize) { return softmax_block_bytes / typeSize; }

// Floats per row of each operator's working space.
inline constexpr uint32_t softmax_row_floats(uint32_t k, uint32_t typeSize) { return per_block(typeSize) + k + softmax_unit; }
inline constexpr uint32_t softmax_grad_row_floats(uint32_t k, uint32_t typeSize, bool isFront) {
    return typeSize == 2 ? per_block(typeSize) * 2 + k * 3 + softmax_unit
                         : (isFront ? per_block(typeSize) + k + softmax_unit : per_block(typeSize) * 2 + k + softmax_unit);
}
// SoftmaxFlashV2 (typeSize1 the source's, typeSize2 the max/sum's), not in basic-block mode.
inline constexpr uint32_t flashv2_row_floats(uint32_t k, uint32_t typeSize1, uint32_t typeSize2) {
    return typeSize1 == 2 ? per_block(typeSize2) * 2 + k + softmax_unit : per_block(typeSize2) + softmax_unit;
}
// In basic-block mode (rows a multiple of 8, columns of 64), per row of 8-row blocks.
inline constexpr uint32_t flashv2_basic_row_floats(uint32_t k, uint32_t typeSize1, uint32_t typeSize2) {
    const uint32_t unit = k == softmax_basic_min * 4 ? softmax_unit * 2 : softmax_unit;
    return typeSize1 == 2 ? per_block(typeSize2) + k + unit : per_block(typeSize2) + unit;
}
inline constexpr uint32_t flashv2_min(uint32_t m, uint32_t k, uint32_t typeSize1, uint32_t typeSize2, bool isBasicBlock,
                                      bool isFlashOutputBrc) {
    const bool basic = isBasicBlock && k % softmax_unit == 0;
    uint32_t floats = basic ? softmax_basic_rows * flashv2_basic_row_floats(k, typeSize1, typeSize2)
                            : flashv2_row_floats(k, typeSize1, typeSize2);
    if (isFlashOutputBrc) {
        const uint32_t rows = std::min(softmax_block_bytes / typeSize1, m);
        floats = basic ? floats / softmax_basic_rows * rows : floats * rows;
    }
    return floats * 4;
}
inline constexpr uint32_t flashv3_row_floats(uint32_t k, uint32_t typeSize2) {
    return per_block(typeSize2) * 5 + 2 * k + softmax_unit;
}

// The rows of a tile, its columns (the last dimension).
struct RowsCols {
    uint32_t m = 0;
    uint32_t k = 0;
};
inline RowsCols rows_cols(const AscendC::TensorShape& shape) {
    const std::vector<int64_t> dims = shape.GetDims();
    if (dims.empty() || dims.back() <= 0) return {};
    int64_t total = 1;
    for (int64_t dim : dims) total *= dim;
    const auto k = static_cast<uint32_t>(dims.back());
    return {static_cast<uint32_t>(total / k), k};
}

inline bool softmax_shape_ok(const char* function, const AscendC::TensorShape& shape, uint32_t typeSize) {
    if (!host_check(typeSize == 2 || typeSize == 4, function, "dataTypeSize must be 2 (half) or 4 (float).")) return false;
    const RowsCols rc = rows_cols(shape);
    if (!host_check(shape.GetShapeSize() > 0 && rc.k > 0, function, "input srcShape size must be greater than 0."))
        return false;
    return host_check((uint64_t(rc.k) * typeSize) % softmax_block_bytes == 0, function,
                      "the last axis of srcShape must be 32-byte aligned.");
}

inline void adjust_to_basic_block(uint32_t& baseM, uint32_t m, uint32_t k) {
    if (baseM > softmax_basic_rows && m % softmax_basic_rows == 0 && k % softmax_unit == 0) {
        baseM = baseM / softmax_basic_rows * softmax_basic_rows;
        while (m % baseM != 0) baseM -= softmax_basic_rows;
        while (baseM * k >= softmax_unit * softmax_basic_min) baseM /= 2;
    }
}

// Fills a tiling of `m` x `k` split into blocks of baseM rows; the reduced values take
// `per_row` elements a row.
template <typename Tiling>
inline void fill_tiling(Tiling& tiling, uint32_t m, uint32_t k, uint32_t per_row, uint32_t baseM) {
    tiling.srcM = m;
    tiling.srcK = k;
    tiling.srcSize = m * k;
    tiling.outMaxM = m;
    tiling.outMaxK = per_row;
    tiling.outMaxSize = m * per_row;
    tiling.splitM = baseM;
    tiling.splitK = k;
    tiling.splitSize = baseM * k;
    tiling.reduceM = baseM;
    tiling.reduceK = per_row;
    tiling.reduceSize = baseM * per_row;
    const uint32_t tail = baseM != 0 ? m % baseM : 0;
    tiling.rangeM = baseM != 0 ? m / baseM : 0;
    tiling.tailM = tail;
    tiling.tailSplitSize = tail * k;
    tiling.tailReduceSize = tail * per_row;
}

// The rows a buffer of `bytes` holds at `row_floats` floats a row, at most m, a multiple of 8
// when less than m.
inline uint32_t rows_in(uint32_t bytes, uint32_t row_floats, uint32_t m) {
    uint32_t baseM = std::min(bytes / 4 / row_floats, m);
    if (baseM < m && baseM > softmax_basic_rows) baseM = baseM / softmax_basic_rows * softmax_basic_rows;
    return baseM;
}

template <typename Tiling>
inline void copy_tiling(const Tiling& from, AscendC::tiling::SoftMaxTiling& to) {
    from.SaveToBuffer(&to, sizeof(to));
}

}  // namespace canopy::adv::sizes

namespace AscendC {

// ---- SoftMax -------------------------------------------------------------------------------------

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize)) return 0;
    const s::RowsCols rc = s::rows_cols(srcShape);
    return rc.m * s::softmax_row_floats(rc.k, dataTypeSize) * 4;
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxMinTmpSize", srcShape, dataTypeSize)) return 0;
    return s::softmax_row_floats(s::rows_cols(srcShape).k, dataTypeSize) * 4;
}
}  // namespace AscendC

namespace canopy::adv::sizes {
template <class Tiling>
inline void softmax_tiling(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize, Tiling& softmaxTiling) {
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("SoftMaxTilingFunc", srcShape, dataTypeSize)) return;
    const s::RowsCols rc = s::rows_cols(srcShape);
    uint32_t baseM = s::rows_in(localWorkSpaceSize, s::softmax_row_floats(rc.k, dataTypeSize), rc.m);
    s::adjust_to_basic_block(baseM, rc.m, rc.k);
    s::fill_tiling(softmaxTiling, rc.m, rc.k, s::per_block(dataTypeSize), baseM);
}
}  // namespace canopy::adv::sizes

namespace AscendC {
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxTiling) {
    canopy::adv::sizes::softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
    canopy::adv::sizes::softmax_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

inline bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    (void)dataTypeSize;
    return tiling.splitM % canopy::adv::sizes::softmax_basic_rows == 0 &&
           tiling.srcK % canopy::adv::sizes::softmax_unit == 0 && tiling.srcK < 2048 && tiling.splitM > 0;
}
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    (void)dataTypeSize;
    return tiling.splitM % canopy::adv::sizes::softmax_basic_rows == 0 &&
           tiling.srcK % canopy::adv::sizes::softmax_unit == 0 && tiling.srcK < 2048 && tiling.splitM > 0;
}

// ---- SoftmaxFlashV2 -------------------------------------------------------------------------------

inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1)) return 0;
    if (!canopy::adv::host_check(dataTypeSize2 == 2 || dataTypeSize2 == 4, "GetSoftMaxFlashV2MinTmpSize",
                                 "dataTypeSize2 must be 2 (half) or 4 (float)."))
        return 0;
    const s::RowsCols rc = s::rows_cols(srcShape);
    return s::flashv2_min(rc.m, rc.k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isFlashOutputBrc;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1)) return 0;
    s::RowsCols rc = s::rows_cols(srcShape);
    if (isBasicBlock && rc.k % s::softmax_unit == 0 && rc.m % s::softmax_basic_rows == 0) {
        while (rc.m * rc.k >= s::softmax_unit * s::softmax_basic_min) rc.m /= 2;
        return rc.m * s::flashv2_basic_row_floats(rc.k, dataTypeSize1, dataTypeSize2) * 4;
    }
    return rc.m * s::flashv2_row_floats(rc.k, dataTypeSize1, dataTypeSize2) * 4;
}
}  // namespace AscendC

namespace canopy::adv::sizes {
template <class Tiling>
inline void flash_v2_tiling(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                            const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize, Tiling& softmaxFlashTiling,
                            const bool isBasicBlock, const bool isFlashOutputBrc) {
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1)) return;
    const s::RowsCols rc = s::rows_cols(srcShape);
    uint32_t baseM = 0;
    if (isBasicBlock && rc.k % s::softmax_unit == 0 && rc.m % s::softmax_basic_rows == 0) {
        baseM = std::min(localWorkSpaceSize / 4 / s::flashv2_basic_row_floats(rc.k, dataTypeSize1, dataTypeSize2), rc.m);
        s::adjust_to_basic_block(baseM, rc.m, rc.k);
    } else {
        baseM = localWorkSpaceSize / 4 / s::flashv2_row_floats(rc.k, dataTypeSize1, dataTypeSize2);
    }
    const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : s::softmax_basic_rows;
    baseM = std::min(baseM, rc.m);
    if (baseM < rc.m && baseM > tile) baseM = baseM / tile * tile;
    s::fill_tiling(softmaxFlashTiling, rc.m, rc.k, s::per_block(dataTypeSize2), baseM);
}
}  // namespace canopy::adv::sizes

namespace AscendC {
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    canopy::adv::sizes::flash_v2_tiling(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashTiling,
                                        isBasicBlock, isFlashOutputBrc);
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    canopy::adv::sizes::flash_v2_tiling(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashTiling,
                                        isBasicBlock, isFlashOutputBrc);
}

// ---- SoftmaxGrad ---------------------------------------------------------------------------------

inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize)) return 0;
    const s::RowsCols rc = s::rows_cols(srcShape);
    return rc.m * s::softmax_grad_row_floats(rc.k, dataTypeSize, isFront) * 4;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize)) return 0;
    return s::softmax_grad_row_floats(s::rows_cols(srcShape).k, dataTypeSize, isFront) * 4;
}
}  // namespace AscendC

namespace canopy::adv::sizes {
template <class Tiling>
inline void grad_tiling(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                        const uint32_t localWorkSpaceSize, Tiling& softmaxGradTiling, const bool isFront) {
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("SoftMaxGradTilingFunc", srcShape, dataTypeSize)) return;
    const s::RowsCols rc = s::rows_cols(srcShape);
    uint32_t baseM = s::rows_in(localWorkSpaceSize, s::softmax_grad_row_floats(rc.k, dataTypeSize, isFront), rc.m);
    s::adjust_to_basic_block(baseM, rc.m, rc.k);
    s::fill_tiling(softmaxGradTiling, rc.m, rc.k, s::per_block(dataTypeSize), baseM);
}
}  // namespace canopy::adv::sizes

namespace AscendC {
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    canopy::adv::sizes::grad_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling, isFront);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    canopy::adv::sizes::grad_tiling(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling, isFront);
}

// ---- SoftmaxFlashV3 (half source, float statistics) ----------------------------------------------

inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1)) return;
    if (!canopy::adv::host_check(dataTypeSize1 == 2 && dataTypeSize2 == 4, "GetSoftMaxFlashV3MaxMinTmpSize",
                                 "SoftmaxFlashV3 takes a half source and float statistics."))
        return;
    const s::RowsCols rc = s::rows_cols(srcShape);
    minValue = s::flashv3_row_floats(rc.k, dataTypeSize2) * 4;
    maxValue = rc.m * minValue;
}
}  // namespace AscendC

namespace canopy::adv::sizes {
template <class Tiling>
inline void flash_v3_tiling(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                            const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                            Tiling& softmaxFlashV3Tiling) {
    namespace s = canopy::adv::sizes;
    if (!s::softmax_shape_ok("SoftMaxFlashV3TilingFunc", srcShape, dataTypeSize1)) return;
    const s::RowsCols rc = s::rows_cols(srcShape);
    const uint32_t baseM = s::rows_in(localWorkSpaceSize, s::flashv3_row_floats(rc.k, dataTypeSize2), rc.m);
    s::fill_tiling(softmaxFlashV3Tiling, rc.m, rc.k, s::per_block(dataTypeSize2), baseM);
}
}  // namespace canopy::adv::sizes

namespace AscendC {
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    canopy::adv::sizes::flash_v3_tiling(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize,
                                        softmaxFlashV3Tiling);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    canopy::adv::sizes::flash_v3_tiling(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize,
                                        softmaxFlashV3Tiling);
}

}  // namespace AscendC
