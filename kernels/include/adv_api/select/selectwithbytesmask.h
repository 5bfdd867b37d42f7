#pragma once
// Select with a bytes mask (CANN adv_api/select/selectwithbytesmask.h): dst = mask ? src1 : src0
// elementwise over info.firstAxis rows, one of src0 / src1 a scalar. The source rows hold
// info.srcLastAxis elements, the mask rows info.maskLastAxis (at least srcLastAxis) elements of U,
// any nonzero value selecting src1.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

#ifndef CANOPY_SELECT_BYTES_MASK_INFO_DEFINED
#define CANOPY_SELECT_BYTES_MASK_INFO_DEFINED
struct SelectWithBytesMaskShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
#endif

}  // namespace AscendC

namespace canopy::adv {

template <typename T, typename U, bool isReuseMask, bool scalarFirst>
inline void select_with_bytes_mask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tensor, T scalar,
                                   const AscendC::LocalTensor<U>& mask,
                                   const AscendC::LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const AscendC::SelectWithBytesMaskShapeInfo& info) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Select takes 16- or 32-bit elements");
    static_assert(sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4, "the mask takes 8-, 16- or 32-bit elements");
    AdvancedCall call("Select");
    call.require(info.srcLastAxis * sizeof(T) % 32 == 0, "info.srcLastAxis ", info.srcLastAxis,
                 " must make 32-byte rows");
    call.require(info.maskLastAxis * sizeof(U) % 32 == 0, "info.maskLastAxis ", info.maskLastAxis,
                 " must make 32-byte rows");
    call.require(info.maskLastAxis >= info.srcLastAxis, "info.maskLastAxis ", info.maskLastAxis,
                 " must be at least srcLastAxis ", info.srcLastAxis);
    const uint64_t elements = uint64_t(info.firstAxis) * info.srcLastAxis;
    const T* src = call.in(scalarFirst ? "src1" : "src0", tensor, elements);
    const U* m = isReuseMask ? call.inout("mask", mask, uint64_t(info.firstAxis) * info.maskLastAxis)
                             : call.in("mask", mask, uint64_t(info.firstAxis) * info.maskLastAxis);
    T* out = call.out("dst", dst, elements);
    call.tmp("sharedTmpBuffer", sharedTmpBuffer,
             sizes::select_bytes_mask(uint32_t(elements), info.srcLastAxis, info.maskLastAxis, sizeof(U), isReuseMask,
                                      true));
    call.issue();
    for (uint32_t row = 0; row < info.firstAxis; ++row) {
        for (uint32_t col = 0; col < info.srcLastAxis; ++col) {
            const bool set = m[uint64_t(row) * info.maskLastAxis + col] != U(0);
            const T value = src[uint64_t(row) * info.srcLastAxis + col];
            // mask ? src1 : src0
            out[uint64_t(row) * info.srcLastAxis + col] = scalarFirst ? (set ? value : scalar) : (set ? scalar : value);
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    canopy::adv::select_with_bytes_mask<T, U, isReuseMask, false>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    canopy::adv::select_with_bytes_mask<T, U, isReuseMask, true>(dst, src1, src0, mask, sharedTmpBuffer, info);
}

}  // namespace AscendC
