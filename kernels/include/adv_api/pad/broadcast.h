#pragma once
// Broadcast (CANN adv_api/pad/broadcast.h), the A2 form: a 1-D [1] -> [n], or a 2-D source
// broadcast along `axis` (0: [1, N] -> [M, N]; 1: [M, 1] -> [M, N]). Tensors are contiguous.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace canopy::adv {

template <typename T, int32_t dim, int32_t axis>
inline void broadcast(const AscendC::LocalTensor<T>& dstLocal, const AscendC::LocalTensor<T>& srcLocal,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      const AscendC::LocalTensor<uint8_t>* tmp) {
    static_assert(dim == 1 || dim == 2, "Broadcast on the A2 takes 1- or 2-dimensional shapes");
    static_assert(axis == 0 || axis == 1, "Broadcast's axis is 0 or 1");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Broadcast takes 8-, 16- or 32-bit elements");
    AdvancedCall call("Broadcast");
    const uint32_t rows = dim == 2 ? dstShape[0] : 1;
    const uint32_t cols = dim == 2 ? dstShape[1] : dstShape[0];
    const uint32_t src_rows = dim == 2 ? srcShape[0] : 1;
    const uint32_t src_cols = dim == 2 ? srcShape[1] : srcShape[0];
    if constexpr (dim == 1) {
        call.require(src_cols == 1 || src_cols == cols, "srcShape [", src_cols, "] does not broadcast to [", cols, "]");
    } else if constexpr (axis == 0) {
        call.require(src_rows == 1 && src_cols == cols, "axis 0 broadcasts [1, N]: srcShape [", src_rows, ", ",
                     src_cols, "] dstShape [", rows, ", ", cols, "]");
    } else {
        call.require(src_cols == 1 && src_rows == rows, "axis 1 broadcasts [M, 1]: srcShape [", src_rows, ", ",
                     src_cols, "] dstShape [", rows, ", ", cols, "]");
    }
    const T* src = call.in("srcLocal", srcLocal, uint64_t(src_rows) * src_cols);
    T* dst = call.out("dstLocal", dstLocal, uint64_t(rows) * cols);
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, sizes::broadcast(src_rows, src_cols, rows, cols, sizeof(T)).min_value);
    }
    call.issue();
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
            const uint64_t from = (dim == 1) ? (src_cols == 1 ? 0 : c) : (axis == 0 ? c : r);
            dst[uint64_t(r) * cols + c] = src[from];
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

// CANN spells the implementation BroadCast and the documented entry Broadcast; kernels call both.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer) {
    canopy::adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
    canopy::adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC
