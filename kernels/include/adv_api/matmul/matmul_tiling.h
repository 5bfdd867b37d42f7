#pragma once
// matmul_tiling::MatmulApiTiling: the tiling of a Matmul on one core (the whole shape is the core's
// singleCoreM x singleCoreN x singleCoreK). The algorithm is in matmul_tiling_base.h.
#include <cstdint>

#include "adv_api/matmul/matmul_tiling_base.h"

namespace matmul_tiling {

class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() = default;
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
    ~MatmulApiTiling() override = default;

    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return Finish(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return Finish(tiling); }
    bool EnableL1BankConflictOptimise() { return false; }

protected:
    int64_t Compute() override {
        if (!CheckSetParam()) return -1;
        singleCoreM = singleM;
        singleCoreN = singleN;
        singleCoreK = singleK;
        usedCoreNum_ = 1;
        return ComputeBlocks() ? 0 : -1;
    }
};

// The buffers a computed tiling uses: L1 (A and B blocks and the bias row), L0C (the accumulator
// block) and UB (a C block moved through the UB).
inline int32_t CanopyTmpBufSize(const AscendC::tiling::TCubeTiling& t, SysTilingTempBufSize& bufSize) {
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0) return -1;
    bufSize.l1Size = t.shareL1Size;
    bufSize.l0cSize = t.baseM * t.baseN * 4 * (t.dbL0C > 1 ? 2 : 1);
    bufSize.ubSize = t.transLength;
    return 0;
}
inline int32_t CanopyTmpBufSize(const optiling::TCubeTiling& tiling, SysTilingTempBufSize& bufSize) {
    AscendC::tiling::TCubeTiling t;
    tiling.SaveToBuffer(&t, sizeof(t));
    return CanopyTmpBufSize(t, bufSize);
}

}  // namespace matmul_tiling

inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
inline int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                     matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
