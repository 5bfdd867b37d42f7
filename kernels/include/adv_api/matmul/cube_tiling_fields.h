#pragma once
// The fields of CANN's TCubeTiling in their order (50 int32_t: 200 bytes), once for both of its
// forms: the host's optiling::TCubeTiling (matmul_tilingdata.h, with set_/get_ accessors) and the
// kernel's AscendC::tiling::TCubeTiling (kernel_cube_tiling.h). X(name) per field.
#define CANOPY_TCUBE_TILING_FIELDS(X)                                                              \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM)     \
    X(baseN) X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength)            \
    X(iterateOrder) X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) \
    X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB)      \
    X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG)     \
    X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD) \
    X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) X(CLayoutInfoS2) X(BatchNum)  \
    X(mxTypePara)
