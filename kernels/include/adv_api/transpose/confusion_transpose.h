#pragma once
// Transpose / ConfusionTranspose with a TransposeType (CANN adv_api/transpose/confusion_transpose.h),
// the 0213 forms: TRANSPOSE_NZ2ND_0213 reads [B, A1, A3/16, A2/16, 16, 16] (an NZ tile per (b, a1) of
// A2 x A3) and writes ND [B, A2, A1, A3]; TRANSPOSE_NZ2NZ_0213 writes the same in NZ,
// [B, A2, A3/16, A1/16, 16, 16]. The shape comes from the tiling (GetTransposeTilingInfo):
// param1 = B, param2 = A1, param4 = A2 rounded up to 16, param3 = A3 rounded up to 16.
#include "adv_api/transpose/confusion_transpose_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/kernel/ascendc/transpose.h"

namespace canopy::adv {

template <typename T>
inline void confusion_transpose(const AscendC::LocalTensor<T>& dstTensor, const AscendC::LocalTensor<T>& srcTensor,
                                const AscendC::LocalTensor<uint8_t>* tmp, AscendC::TransposeType type,
                                const AscendC::tiling::ConfusionTransposeTiling& tiling) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Transpose takes 16- or 32-bit elements");
    AdvancedCall call("Transpose");
    call.require(type == AscendC::TransposeType::TRANSPOSE_NZ2ND_0213 ||
                     type == AscendC::TransposeType::TRANSPOSE_NZ2NZ_0213,
                 "TransposeType ", int(type), " is not one Canopy models (NZ2ND_0213, NZ2NZ_0213)");
    const int64_t b = tiling.param1;
    const int64_t a1 = tiling.param2;
    const int64_t a3 = tiling.param3;
    const int64_t a2 = tiling.param4;
    call.require(b > 0 && a1 > 0 && a2 > 0 && a3 > 0 && a2 % 16 == 0 && a3 % 16 == 0, "the tiling's shape [", b,
                 ", ", a1, ", ", a2, ", ", a3, "] is empty or not 16-aligned (was GetTransposeTilingInfo called?)");
    const uint64_t total = uint64_t(b * a1 * a2 * a3);
    const T* src = call.in("srcTensor", srcTensor, total);
    T* dst = call.out("dstTensor", dstTensor, total);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, 256 * sizeof(T));
    call.issue();
    const bool nz = type == AscendC::TransposeType::TRANSPOSE_NZ2NZ_0213;
    call.require(!nz || a1 % 16 == 0, "NZ2NZ_0213 needs A1 (", a1, ") a multiple of 16");
    for (int64_t ib = 0; ib < b; ++ib) {
        for (int64_t i1 = 0; i1 < a1; ++i1) {
            for (int64_t i2 = 0; i2 < a2; ++i2) {
                for (int64_t i3 = 0; i3 < a3; ++i3) {
                    // NZ source: [b][a1][i3/16][i2/16][i2%16][i3%16]
                    const int64_t from = ((((ib * a1 + i1) * (a3 / 16) + i3 / 16) * (a2 / 16) + i2 / 16) * 16 +
                                          i2 % 16) * 16 + i3 % 16;
                    int64_t to;
                    if (!nz) {
                        to = ((ib * a2 + i2) * a1 + i1) * a3 + i3;
                    } else {
                        // NZ destination of the [a1, a3] tile of (b, a2): [b][a2][i3/16][i1/16][i1%16][i3%16]
                        to = ((((ib * a2 + i2) * (a3 / 16) + i3 / 16) * (a1 / 16) + i1 / 16) * 16 + i1 % 16) * 16 +
                             i3 % 16;
                    }
                    dst[to] = src[from];
                }
            }
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling) {
    canopy::adv::confusion_transpose(dstTensor, srcTensor, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 TransposeType transposeType, ConfusionTransposeTiling& tiling) {
    canopy::adv::confusion_transpose(dstTensor, srcTensor, nullptr, transposeType, tiling);
}
template <typename T>
__aicore__ inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                          const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                          ConfusionTransposeTiling& tiling) {
    canopy::adv::confusion_transpose(dstTensor, srcTensor, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
__aicore__ inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                          TransposeType transposeType, ConfusionTransposeTiling& tiling) {
    canopy::adv::confusion_transpose(dstTensor, srcTensor, nullptr, transposeType, tiling);
}

}  // namespace AscendC
