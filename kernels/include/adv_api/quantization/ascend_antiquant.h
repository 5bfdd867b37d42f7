#pragma once
// AscendAntiQuant (CANN adv_api/quantization/ascend_antiquant.h): dst = (src + offset) * scale from
// an int8 source. Not transposed, src is [K, N] and offset / scale are [G, N] (G groups of K / G
// rows); transposed, src is [N, K] and offset / scale are [N, G]. Their shape comes from
// shapeInfo when given, else from the tensors' ShapeInfo, else [1, size] ([size, 1] transposed).
// A scalar offset and scale quantize per tensor. To half the arithmetic is in half (each step
// rounded), to bfloat16 in float.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace canopy::adv {

struct Grid {
    uint32_t height;
    uint32_t width;
};

template <typename T>
inline Grid antiquant_grid(const AscendC::LocalTensor<T>& tensor, uint32_t height, uint32_t width, bool transpose) {
    if (height != 0 && width != 0) return {height, width};
    const AscendC::ShapeInfo info = tensor.GetShapeInfo();
    if (info.shapeDim == 2) return {info.shape[0], info.shape[1]};
    return transpose ? Grid{tensor.GetSize(), 1} : Grid{1, tensor.GetSize()};
}

template <typename In, typename Out, bool isTranspose>
inline void ascend_antiquant(const AscendC::LocalTensor<Out>& dstTensor, const AscendC::LocalTensor<In>& srcTensor,
                             const AscendC::LocalTensor<Out>* offsetTensor, const AscendC::LocalTensor<Out>* scaleTensor,
                             Out scalarOffset, Out scalarScale, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k,
                             const AscendC::AntiQuantShapeInfo& shapeInfo) {
    static_assert(std::is_same_v<In, int8_t>, "AscendAntiQuant on the A2 takes int8 input");
    static_assert(std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>,
                  "AscendAntiQuant outputs half or bfloat16");
    AdvancedCall call("AscendAntiQuant");
    const uint32_t total = srcTensor.GetSize();
    call.require(k > 0 && total % k == 0, "K ", k, " must divide the source's ", total, " elements");
    const uint32_t n = total / k;
    // Rows and columns of src as laid out.
    const uint32_t rows = isTranspose ? n : k;
    const uint32_t cols = isTranspose ? k : n;
    const In* src = call.in("src", srcTensor, total);
    Out* dst = call.out("dst", dstTensor, total);
    Grid scale_grid{1, 1};
    Grid offset_grid{1, 1};
    const Out* scales = nullptr;
    const Out* offsets = nullptr;
    if (scaleTensor != nullptr) {
        scale_grid = antiquant_grid(*scaleTensor, shapeInfo.scaleHeight, shapeInfo.scaleWidth, isTranspose);
        call.require(isTranspose ? scale_grid.height == n : scale_grid.width == n, "scale shape [", scale_grid.height,
                     ", ", scale_grid.width, "] does not match N ", n);
        const uint32_t groups = isTranspose ? scale_grid.width : scale_grid.height;
        call.require(groups > 0 && k % groups == 0, "scale's ", groups, " groups do not divide K ", k);
        scales = call.in("scale", *scaleTensor, scale_grid.height * scale_grid.width);
    }
    if (offsetTensor != nullptr) {
        offset_grid = antiquant_grid(*offsetTensor, shapeInfo.offsetHeight, shapeInfo.offsetWidth, isTranspose);
        call.require(offset_grid.height == scale_grid.height && offset_grid.width == scale_grid.width, "offset shape [",
                     offset_grid.height, ", ", offset_grid.width, "] differs from scale shape [", scale_grid.height,
                     ", ", scale_grid.width, "]");
        offsets = call.in("offset", *offsetTensor, offset_grid.height * offset_grid.width);
    }
    if (tmp != nullptr) {
        const uint32_t scale_size = scaleTensor ? scale_grid.height * scale_grid.width : 1;
        call.tmp("sharedTmpBuffer", *tmp,
                 sizes::ascend_antiquant_min(total, scale_size, k, isTranspose, std::is_same_v<Out, half>));
    }
    call.issue();
    const uint32_t groups = scaleTensor ? (isTranspose ? scale_grid.width : scale_grid.height) : 1;
    const uint32_t group_size = k / groups;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            // Scale / offset element: [group, column] or, transposed, [row, group].
            const uint32_t index = isTranspose ? r * groups + c / group_size : (r / group_size) * cols + c;
            const float s = scales ? static_cast<float>(scales[index]) : static_cast<float>(scalarScale);
            const float o = offsets ? static_cast<float>(offsets[index])
                                    : (offsetTensor == nullptr && scaleTensor != nullptr ? 0.0f
                                                                                        : static_cast<float>(scalarOffset));
            const float x = static_cast<float>(src[uint64_t(r) * cols + c]);
            if constexpr (std::is_same_v<Out, half>) {
                dst[uint64_t(r) * cols + c] = half(float(half(float(half(x + o)) * s)));
            } else {
                dst[uint64_t(r) * cols + c] = static_cast<Out>((x + o) * s);
            }
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &offset, &scale, OutputDataType(0), OutputDataType(0), &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, &scale, OutputDataType(0), OutputDataType(0), &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, &offset, &scale, OutputDataType(0), OutputDataType(0), nullptr, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                              &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(
        dst, src, nullptr, nullptr, OutputDataType(0), scale, &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    canopy::adv::ascend_antiquant<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                              nullptr, k, shapeInfo);
}

}  // namespace AscendC
