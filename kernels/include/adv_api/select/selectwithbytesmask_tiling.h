#pragma once
// Host tiling of Select with a bytes mask (CANN adv_api/select/selectwithbytesmask_tiling.h).
#include <cstdint>

#include "canopy/adv/host_support.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv::sizes {
inline bool select_is_scalar(const AscendC::TensorShape& shape) {
    return shape.GetDimNum() == 0 || shape.GetShapeSize() == 1;
}
inline uint32_t select_size(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,
                            const AscendC::TensorShape& maskShape, uint32_t maskTypeSize, bool isReuseMask,
                            bool minimum) {
    const bool scalar0 = select_is_scalar(src0Shape);
    const AscendC::TensorShape& src = scalar0 ? src1Shape : src0Shape;
    const uint32_t maskLast = maskShape.GetDimNum() ? uint32_t(maskShape.GetDim(maskShape.GetDimNum() - 1)) : 0;
    const uint32_t srcLast = src.GetDimNum() ? uint32_t(src.GetDim(src.GetDimNum() - 1)) : 0;
    return canopy::adv::sizes::select_bytes_mask(uint32_t(src.GetShapeSize()), srcLast, maskLast, maskTypeSize,
                                                 isReuseMask, minimum);
}
}  // namespace canopy::adv::sizes

namespace AscendC {

inline uint32_t GetSelectMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return canopy::adv::sizes::select_size(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
inline uint32_t GetSelectMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
    (void)srcTypeSize;
    return canopy::adv::sizes::select_size(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                   uint32_t& minValue) {
    maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                                const uint32_t srcTypeSize, const TensorShape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue,
                           minValue);
}

}  // namespace AscendC
