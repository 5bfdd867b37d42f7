#pragma once
// DropOut (CANN adv_api/filter/dropout.h): dst = mask ? src / keepProb : 0 over info.firstAxis rows
// of info.srcLastAxis elements (computed as src * (1 / keepProb)). The mask is one byte per element
// (rows of info.maskLastAxis >= srcLastAxis bytes, nonzero keeps) or one bit per element (rows of
// maskLastAxis bytes, maskLastAxis * 8 >= srcLastAxis, the lowest bit first). dropOutMode 0 picks
// the form from the shapes (bytes when maskLastAxis >= srcLastAxis); 1 and 2 force bytes
// (misaligned, aligned), 3 and 4 bits.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

#ifndef CANOPY_DROPOUT_INFO_DEFINED
#define CANOPY_DROPOUT_INFO_DEFINED
struct DropOutShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
#endif

constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

}  // namespace AscendC

namespace canopy::adv {

template <typename T, bool isInitBitMode, uint32_t dropOutMode>
inline void dropout(const AscendC::LocalTensor<T>& dstLocal, const AscendC::LocalTensor<T>& srcLocal,
                    const AscendC::LocalTensor<uint8_t>& maskLocal, const AscendC::LocalTensor<uint8_t>* tmp,
                    const float keepProb, const AscendC::DropOutShapeInfo& info) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "DropOut supports half and float");
    AdvancedCall call("DropOut");
    bool bytes = info.maskLastAxis >= info.srcLastAxis;
    if constexpr (dropOutMode == AscendC::DROPOUT_MODE_BYTE_MISALIGN || dropOutMode == AscendC::DROPOUT_MODE_BYTE_ALIGN)
        bytes = true;
    if constexpr (dropOutMode == AscendC::DROPOUT_MODE_BIT_ALIGN || dropOutMode == AscendC::DROPOUT_MODE_BIT_MISALIGN)
        bytes = false;
    call.require(keepProb > 0.0f && keepProb <= 1.0f, "keepProb ", keepProb, " must be in (0, 1]");
    if (bytes) {
        call.require(info.maskLastAxis >= info.srcLastAxis, "a byte mask's rows (maskLastAxis ", info.maskLastAxis,
                     ") must cover srcLastAxis ", info.srcLastAxis);
    } else {
        call.require(uint64_t(info.maskLastAxis) * 8 >= info.srcLastAxis, "a bit mask's rows (maskLastAxis ",
                     info.maskLastAxis, " bytes) must cover srcLastAxis ", info.srcLastAxis, " bits");
    }
    const uint64_t elements = uint64_t(info.firstAxis) * info.srcLastAxis;
    const T* src = call.in("srcLocal", srcLocal, elements);
    const uint8_t* mask = call.in("maskLocal", maskLocal, uint64_t(info.firstAxis) * info.maskLastAxis);
    T* dst = call.out("dstLocal", dstLocal, elements);
    if (tmp != nullptr) call.tmp("sharedTmpBuffer", *tmp, sizes::dropout_min());
    call.issue();
    const float scale = 1.0f / keepProb;
    for (uint32_t row = 0; row < info.firstAxis; ++row) {
        const uint8_t* mask_row = mask + uint64_t(row) * info.maskLastAxis;
        for (uint32_t col = 0; col < info.srcLastAxis; ++col) {
            const bool keep = bytes ? mask_row[col] != 0 : ((mask_row[col / 8] >> (col % 8)) & 1u) != 0;
            const uint64_t at = uint64_t(row) * info.srcLastAxis + col;
            dst[at] = keep ? static_cast<T>(static_cast<float>(src[at]) * scale) : T(0);
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info) {
    canopy::adv::dropout<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb,
                                                        info);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info) {
    canopy::adv::dropout<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info);
}

}  // namespace AscendC
