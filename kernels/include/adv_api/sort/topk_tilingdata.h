#pragma once
// The tiling struct of TopK (CANN adv_api/sort/topk_tilingdata.h), as the kernel reads it.
#include <cstdint>

#include "canopy/adv/tiling_fields.h"

#define CANOPY_TOPK_TILING_FIELDS(F)                                                                          \
    F(int32_t, tmpLocalSize) F(int32_t, allDataSize) F(int32_t, innerDataSize) F(uint32_t, sortRepeat)       \
    F(int32_t, mrgSortRepeat) F(int32_t, kAlignFourBytes) F(int32_t, kAlignTwoBytes) F(int32_t, maskOffset) \
    F(int32_t, maskVreducev2FourBytes) F(int32_t, maskVreducev2TwoBytes) F(int32_t, mrgSortSrc1offset)     \
    F(int32_t, mrgSortSrc2offset) F(int32_t, mrgSortSrc3offset) F(int32_t, mrgSortTwoQueueSrc1Offset)      \
    F(int32_t, mrgFourQueueTailPara1) F(int32_t, mrgFourQueueTailPara2) F(int32_t, srcIndexOffset)         \
    F(uint32_t, copyUbToUbBlockCount) F(int32_t, topkMrgSrc1MaskSizeOffset)                                 \
    F(int32_t, topkNSmallSrcIndexOffset) F(uint32_t, vreduceValMask0) F(uint32_t, vreduceValMask1)         \
    F(uint32_t, vreduceIdxMask0) F(uint32_t, vreduceIdxMask1) F(uint16_t, vreducehalfValMask0)             \
    F(uint16_t, vreducehalfValMask1) F(uint16_t, vreducehalfValMask2) F(uint16_t, vreducehalfValMask3)     \
    F(uint16_t, vreducehalfValMask4) F(uint16_t, vreducehalfValMask5) F(uint16_t, vreducehalfValMask6)     \
    F(uint16_t, vreducehalfValMask7)

CANOPY_DECLARE_KERNEL_TILING(TopkTiling, CANOPY_TOPK_TILING_FIELDS)
