#pragma once
// matmul_tiling::MultiCoreMatmulTiling (a Matmul split over SetDim cores: singleCoreM x singleCoreN,
// and singleCoreK with EnableMultiCoreSplitK) and BatchMatmulTiling (batches on one core).
//
// The multi-core split (Canopy's own, after the criteria of CANN's SPLIT_MN scenario): over every
// mDim x nDim (x kDim with split-K) <= dim, singleCoreM = ceil(M / mDim) rounded up to 16 (likewise
// N; K to the K alignment). A split is judged by (1) its largest core's work, doubled when the
// pieces leave a tail core, equal within 1%; then (2) the compute intensity of that core's base
// blocks (multiply-adds per element loaded, over a 128 x 256 block or the fixed split); then (3)
// CANN's band ratio, (dim - mDim) baseM + (dim - nDim) baseN, larger first; then fewer cores.
// usedCoreNum = the cores the split really covers.
#include <cmath>
#include <cstdint>
#include <limits>

#include "adv_api/matmul/matmul_tiling.h"
#include "adv_api/matmul/matmul_tiling_base.h"

namespace matmul_tiling {

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() = default;
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}

    int32_t SetDim(int32_t dim) {
        if (dim <= 0) return -1;
        blockDim = dim;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) override { return MatmulApiTilingBase::SetShape(m, n, k); }
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        if ((singleMIn != -1 && singleMIn <= 0) || (singleNIn != -1 && singleNIn <= 0) ||
            (singleKIn != -1 && singleKIn <= 0)) {
            return -1;
        }
        fixSingleM_ = singleMIn;
        fixSingleN_ = singleNIn;
        fixSingleK_ = singleKIn;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return Finish(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return Finish(tiling); }
    virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                                   int32_t minN = -1, int32_t minK = -1) {
        maxSingleM = maxM;
        maxSingleN = maxN;
        maxSingleK = maxK;
        minSingleM = minM;
        minSingleN = minN;
        minSingleK = minK;
        return 0;
    }
    int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
        if (alignM == 0 || alignN == 0 || alignK == 0) return -1;
        alignSingleM = alignM > 0 ? alignM : 1;
        alignSingleN = alignN > 0 ? alignN : 1;
        alignSingleK = alignK > 0 ? alignK : 1;
        return 0;
    }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
        shapeM = singleCoreM;
        shapeN = singleCoreN;
        shapeK = singleCoreK;
        return 0;
    }
    // The cores of the last GetTiling: all of them, along M and along N.
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
        dim = usedCoreNum_;
        mDim = mDim_;
        nDim = nDim_;
        return 0;
    }
    void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
    bool EnableL1BankConflictOptimise() { return false; }

protected:
    int64_t Compute() override {
        if (!CheckSetParam()) return -1;
        if (!Split()) return -1;
        return ComputeBlocks() ? 0 : -1;
    }

    bool Split() {
        const int32_t kAlign = std::max(detail::k_alignment(aType_.dataType), detail::k_alignment(bType_.dataType));
        const int32_t alignM = std::max(16, alignSingleM), alignN = std::max(16, alignSingleN);
        const int32_t alignK = std::max(kAlign, alignSingleK);
        auto piece = [](int32_t total, int32_t parts, int32_t align, int32_t fixed) {
            if (fixed > 0) return std::min(fixed, total);
            return std::min(total, detail::align_up(detail::ceil_div(total, parts), align));
        };
        const int32_t dim = std::max(1, blockDim);
        if (fixSingleM_ > 0 || fixSingleN_ > 0 || fixSingleK_ > 0) {
            // CANN takes a SetSingleShape as it is (a dimension left unset is the whole shape's),
            // however many pieces it makes: a kernel may walk several pieces on each core.
            singleCoreM = fixSingleM_ > 0 ? std::min(fixSingleM_, singleM) : singleM;
            singleCoreN = fixSingleN_ > 0 ? std::min(fixSingleN_, singleN) : singleN;
            singleCoreK = fixSingleK_ > 0 ? std::min(fixSingleK_, singleK) : singleK;
            mDim_ = detail::ceil_div(singleM, singleCoreM);
            nDim_ = detail::ceil_div(singleN, singleCoreN);
            const int64_t pieces = int64_t(mDim_) * nDim_ * detail::ceil_div(singleK, singleCoreK);
            usedCoreNum_ = int32_t(std::min<int64_t>(dim, pieces));
            return true;
        }
        double best = std::numeric_limits<double>::max(), bestIntensity = 0, bestBand = 0;
        for (int32_t m = 1; m <= dim; ++m) {
            for (int32_t n = 1; m * n <= dim; ++n) {
                for (int32_t k = 1; m * n * k <= dim; ++k) {
                    if (k > 1 && !enableSplitK_) break;
                    const int32_t sm = piece(singleM, m, alignM, fixSingleM_);
                    const int32_t sn = piece(singleN, n, alignN, fixSingleN_);
                    const int32_t sk = enableSplitK_ ? piece(singleK, k, alignK, fixSingleK_)
                                                     : (fixSingleK_ > 0 ? fixSingleK_ : singleK);
                    if (maxSingleM > 0 && sm > maxSingleM) continue;
                    if (maxSingleN > 0 && sn > maxSingleN) continue;
                    if (minSingleM > 0 && sm < std::min(minSingleM, singleM)) continue;
                    if (minSingleN > 0 && sn < std::min(minSingleN, singleN)) continue;
                    const int32_t mc = detail::ceil_div(singleM, sm), nc = detail::ceil_div(singleN, sn);
                    const int32_t kc = detail::ceil_div(singleK, sk);
                    if (int64_t(mc) * nc * kc > dim) continue;
                    // 1. The largest core's work, doubled when the pieces leave a tail core
                    //    (kernels that do not call SetTail need whole pieces, as CANN's even
                    //    splits give them); within 1% it is a tie.
                    double cost = double(sm) * sn * sk;
                    if (int64_t(sm) * mc != singleM || int64_t(sn) * nc != singleN || int64_t(sk) * kc != singleK) {
                        cost *= 2;
                    }
                    // 2. The compute intensity of the core's base blocks (multiply-adds per element
                    //    loaded), over CANN's basic block (128 x 256, or the fixed split).
                    const int64_t bm = fixBaseM_ > 0 ? fixBaseM_ : 128, bn = fixBaseN_ > 0 ? fixBaseN_ : 256;
                    //    Summed over the blocks (h x w each, the last of a row or column short),
                    //    the multiply-adds are sm * sn and the loads each row of blocks' heights
                    //    once per column of blocks and each column's widths once per row.
                    const double macs = double(sm) * sn;
                    const double loads = double(detail::ceil_div(sn, bn)) * sm + double(detail::ceil_div(sm, bm)) * sn;
                    const double intensity = loads > 0 ? macs / loads : 0;
                    // 3. CANN's band ratio: the cores left along M and N weighted by the base block.
                    const double band = double(dim - mc) * bm + double(dim - nc) * bn;
                    const int32_t cores = mc * nc * kc;
                    bool better;
                    if (cost < best * 0.99) {
                        better = true;
                    } else if (cost > best * 1.01) {
                        better = false;
                    } else if (std::fabs(intensity - bestIntensity) > 1e-4 * std::max(1.0, bestIntensity)) {
                        better = intensity > bestIntensity;
                    } else if (band != bestBand) {
                        better = band > bestBand;
                    } else {
                        better = cores < usedCoreNum_;
                    }
                    if (better) {
                        bestIntensity = intensity;
                        bestBand = band;
                        best = cost;
                        singleCoreM = sm;
                        singleCoreN = sn;
                        singleCoreK = sk;
                        mDim_ = mc;
                        nDim_ = nc;
                        usedCoreNum_ = cores;
                    }
                }
            }
        }
        if (best == std::numeric_limits<double>::max()) {
            Report("no split of the shape over SetDim cores meets the single-core limits");
            return false;
        }
        return true;
    }

    int32_t fixSingleM_ = -1, fixSingleN_ = -1, fixSingleK_ = -1;
    int32_t mDim_ = 1, nDim_ = 1;
};

// Batches of matrices, all on one core (the kernel's IterateBatch walks them): the base block is
// computed for one batch's M x N x K; batchM / batchN record the batches of A and B.
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    BatchMatmulTiling() = default;
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : MatmulApiTilingBase(ascendcPlatform) {}
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN) {
        dim = 1;
        mDim = 1;
        nDim = 1;
        batchCoreM = batchM;
        batchCoreN = batchN;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return Finish(tiling); }
    int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override { return Finish(tiling); }

protected:
    int64_t Compute() override {
        if (!CheckSetParam()) return -1;
        singleCoreM = singleM;
        singleCoreN = singleN;
        singleCoreK = singleK;
        batchM = aLayoutInfoB > 0 ? aLayoutInfoB * std::max(1, aLayoutInfoN) * std::max(1, aLayoutInfoG) : 1;
        batchN = bLayoutInfoB > 0 ? bLayoutInfoB * std::max(1, bLayoutInfoN) * std::max(1, bLayoutInfoG) : 1;
        singleBatchM = batchM;
        singleBatchN = batchN;
        usedCoreNum_ = 1;
        return ComputeBlocks() ? 0 : -1;
    }
};

}  // namespace matmul_tiling

inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                            matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
inline int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                              matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                          matmul_tiling::SysTilingTempBufSize& bufSize) {
    return matmul_tiling::CanopyTmpBufSize(tiling, bufSize);
}
