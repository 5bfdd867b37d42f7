#pragma once
// Pad and UnPad (CANN adv_api/pad/pad.h) on [height, width] tiles.
// Pad: when a row is 32-byte aligned (width * sizeof(T) % 32 == 0) the padding is inside the row:
// elements [srcOriWidth, srcOriWidth + rightPad] of each row become padValue, the row width
// unchanged (leftPad must be 0). Otherwise the rows, width elements apart, are widened to
// leftPad + width + rightPad (which must be 32-byte aligned) with padValue on both sides.
// UnPad removes leftPad and rightPad elements of each row of width elements; the output rows are
// width - leftPad - rightPad elements, contiguous.
#include "adv_api/pad/pad_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

#ifndef CANOPY_PAD_PARAMS_DEFINED
#define CANOPY_PAD_PARAMS_DEFINED
struct PadParams {
    PadParams() = default;
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    UnPadParams() = default;
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
#endif

}  // namespace AscendC

namespace canopy::adv {

template <typename T>
inline void pad(const AscendC::LocalTensor<T>& dstTensor, const AscendC::LocalTensor<T>& srcTensor,
                const AscendC::PadParams& padParams, const AscendC::LocalTensor<uint8_t>* tmp,
                const AscendC::tiling::PadTiling& tiling) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad takes 16- or 32-bit elements");
    AdvancedCall call("Pad");
    const uint32_t height = tiling.srcHeight;
    const uint32_t width = tiling.srcWidth;
    call.require(height > 0 && width > 0, "the tiling's shape [", height, ", ", width, "] is empty");
    const T value = static_cast<T>(padParams.padValue);
    if (width * sizeof(T) % 32 == 0) {
        const uint32_t ori = tiling.srcOriWidth;
        call.require(padParams.leftPad == 0, "an aligned row pads on the right only; leftPad is ", padParams.leftPad);
        call.require(ori + padParams.rightPad <= width, "srcOriWidth ", ori, " + rightPad ", padParams.rightPad,
                     " exceeds the aligned width ", width);
        const uint64_t elements = uint64_t(height) * width;
        const T* src = call.in("srcTensor", srcTensor, elements);
        T* dst = call.out("dstTensor", dstTensor, elements);
        if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::pad_min(sizeof(T)));
        call.issue();
        for (uint32_t r = 0; r < height; ++r) {
            for (uint32_t c = 0; c < width; ++c) {
                const bool padded = c >= ori && c <= ori + padParams.rightPad;
                dst[uint64_t(r) * width + c] = padded ? value : src[uint64_t(r) * width + c];
            }
        }
        return;
    }
    const uint32_t out_width = width + padParams.leftPad + padParams.rightPad;
    call.require(out_width * sizeof(T) % 32 == 0, "leftPad ", padParams.leftPad, " + width ", width, " + rightPad ",
                 padParams.rightPad, " = ", out_width, " elements is not 32-byte aligned");
    call.require(out_width * sizeof(T) - width * sizeof(T) < 32, "Pad widens a row to its 32-byte alignment only: ",
                 width, " to ", out_width, " elements");
    const T* src = call.in("srcTensor", srcTensor, uint64_t(height) * width);
    T* dst = call.out("dstTensor", dstTensor, uint64_t(height) * out_width);
    if (tmp) call.tmp("sharedTmpBuffer", *tmp, sizes::pad_min(sizeof(T)));
    call.issue();
    // Read the source first: with dst == src the rows would overlap.
    std::vector<T> copy(src, src + uint64_t(height) * width);
    for (uint32_t r = 0; r < height; ++r) {
        T* row = dst + uint64_t(r) * out_width;
        std::fill(row, row + padParams.leftPad, value);
        std::copy(copy.data() + uint64_t(r) * width, copy.data() + uint64_t(r + 1) * width, row + padParams.leftPad);
        std::fill(row + padParams.leftPad + width, row + out_width, value);
    }
}

template <typename T>
inline void unpad(const AscendC::LocalTensor<T>& dstTensor, const AscendC::LocalTensor<T>& srcTensor,
                  const AscendC::UnPadParams& params, const AscendC::LocalTensor<uint8_t>* tmp,
                  const AscendC::tiling::UnPadTiling& tiling) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "UnPad takes 16- or 32-bit elements");
    AdvancedCall call("UnPad");
    const uint32_t height = tiling.srcHeight;
    const uint32_t width = tiling.srcWidth;
    call.require(height > 0 && width * sizeof(T) % 32 == 0, "the tiling's rows [", height, ", ", width,
                 "] must be 32-byte aligned");
    call.require(uint32_t(params.leftPad) + params.rightPad < width, "leftPad ", params.leftPad, " + rightPad ",
                 params.rightPad, " leaves nothing of a ", width, "-element row");
    call.require(params.rightPad < 32 / sizeof(T) && params.leftPad < 32 / sizeof(T),
                 "UnPad removes less than 32 bytes on each side");
    const uint32_t out_width = width - params.leftPad - params.rightPad;
    const T* src = call.in("srcTensor", srcTensor, uint64_t(height) * width);
    T* dst = call.out("dstTensor", dstTensor, uint64_t(height) * out_width);
    if (tmp && tmp->GetSize() > 0) call.tmp("sharedTmpBuffer", *tmp, 0);
    call.issue();
    std::vector<T> copy(src, src + uint64_t(height) * width);
    for (uint32_t r = 0; r < height; ++r) {
        std::copy(copy.data() + uint64_t(r) * width + params.leftPad,
                  copy.data() + uint64_t(r) * width + params.leftPad + out_width, dst + uint64_t(r) * out_width);
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
    canopy::adv::pad(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling);
}
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling) {
    canopy::adv::pad(dstTensor, srcTensor, padParams, nullptr, tiling);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
    canopy::adv::unpad(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, UnPadTiling& tiling) {
    canopy::adv::unpad(dstTensor, srcTensor, unPadParams, nullptr, tiling);
}

}  // namespace AscendC
