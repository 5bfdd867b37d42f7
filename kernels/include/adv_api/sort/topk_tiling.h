#pragma once
// Host tiling of TopK (CANN adv_api/sort/topk_tiling.h) for the A2, the architecture Canopy
// models: the platform argument is not consulted.
#include <cstdint>

#include "adv_api/sort/topk.h"
#include "adv_api/sort/topk_tilingdata.h"
#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

CANOPY_DECLARE_HOST_TILING(TopkTiling, CANOPY_TOPK_TILING_FIELDS)

namespace platform_ascendc {
class PlatformAscendC;
}

namespace AscendC {

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)isReuseSource;
    if (inner <= 0 || outter <= 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
    if (mode == TopKMode::TOPK_NSMALL && inner != 32) return false;
    minValue = maxValue = canopy::adv::sizes::topk_min(uint32_t(inner), uint32_t(outter), isInitIndex,
                                                       mode == TopKMode::TOPK_NSMALL, isLargest);
    return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, AscendC::tiling::TopkTiling& t) {
    (void)ascendcPlatform;
    if (dataTypeSize != 2 && dataTypeSize != 4) return false;
    if (k < 1 || k > inner || outter <= 0) return false;
    t.allDataSize = inner * outter;
    t.kAlignFourBytes = (k + 7) / 8 * 8;
    if (mode == TopKMode::TOPK_NORMAL) {
        t.kAlignTwoBytes = (k + 15) / 16 * 16;
        t.tmpLocalSize = 4 * inner;
        t.innerDataSize = inner * 2;
        t.copyUbToUbBlockCount = uint32_t(inner * 2 * 4 / 32);
        t.sortRepeat = uint32_t(inner / 32);
        t.mrgSortRepeat = inner / 4;
        t.maskOffset = outter * t.kAlignFourBytes;
        t.maskVreducev2FourBytes = 2 * k;
        t.maskVreducev2TwoBytes = 4 * k;
        t.mrgSortSrc1offset = 2;
        t.mrgSortSrc2offset = 4;
        t.mrgSortSrc3offset = 6;
        t.mrgSortTwoQueueSrc1Offset = 2;
        t.mrgFourQueueTailPara1 = inner * 2;
        t.mrgFourQueueTailPara2 = int32_t(4 / dataTypeSize);
        if (dataTypeSize == 2) {
            t.tmpLocalSize = 8 * inner;
            t.maskOffset = outter * t.kAlignTwoBytes;
            t.innerDataSize = inner * 4;
            t.mrgSortSrc1offset = 4;
            t.mrgSortSrc2offset = 8;
            t.mrgSortSrc3offset = 12;
            t.mrgSortTwoQueueSrc1Offset = 4;
        }
        if (!isInitIndex) {
            t.tmpLocalSize = dataTypeSize == 2 ? 8 * inner + 2 * inner : 5 * inner;
            t.srcIndexOffset = dataTypeSize == 2 ? 8 * inner : 4 * inner;
        }
    } else {
        const int32_t innerDataSize = inner * outter * int32_t(8 / dataTypeSize);
        t.innerDataSize = innerDataSize;
        t.maskOffset = outter * k;
        const int32_t offset = innerDataSize + (isLargest ? 0 : inner * outter);
        t.topkMrgSrc1MaskSizeOffset = offset;
        t.tmpLocalSize = offset + int32_t(64 / dataTypeSize);
        if (!isInitIndex) {
            t.topkNSmallSrcIndexOffset = offset + int32_t(64 / dataTypeSize);
            t.tmpLocalSize = t.topkNSmallSrcIndexOffset + inner * outter * int32_t(4 / dataTypeSize);
        }
    }
    return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
    AscendC::tiling::TopkTiling plain{};
    if (!TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, plain))
        return false;
    canopy::adv::copy_tiling(plain, topKTiling);
    return true;
}

}  // namespace AscendC
