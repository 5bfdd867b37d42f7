#pragma once
// What Canopy's math and activation operators share: the elementwise forms and the Eigen
// conversions around an advanced call (canopy/kernel/ascendc/adv_call.h), computed in the vector
// unit's precision (half and bfloat16 in float, rounded once when stored).
//
// The checks are CANN's documented preconditions, made as the basic instructions make theirs: UB
// tensors 32-byte aligned, calCount within every tensor, a sharedTmpBuffer of at least the
// minimum its Get...MaxMinTmpSize function answers; without a sharedTmpBuffer, CANN's operators
// take the UB left after the TPipe's buffers (the stack buffer), which must hold that minimum.
// A violation fails the launch with ACL_ERROR_RT_AICORE_EXCEPTION naming the API and the sizes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/adv_call.h"
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/kernel_log.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/pipe.h"
#include "canopy/kernel/ascendc/scalar_minmax.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace canopy::adv {

using canopy::kernel::ascendc::Access;
using canopy::kernel::ascendc::AdvancedCall;
using canopy::kernel::ascendc::compute_t;
using canopy::kernel::ascendc::fail_misuse;

// `length` elements at `data` read in compute precision, as an Eigen array expression.
template <typename T>
inline auto in(const T* data, int64_t length) {
    return canopy::kernel::ascendc::ConstArrayMap<T>(data, length).template cast<compute_t<T>>();
}

// Stores a compute-precision array into `length` elements at `data` (rounded, saturated as the
// vector unit does).
template <typename T, typename Expression>
inline void out(T* data, int64_t length, const Expression& value) {
    canopy::kernel::ascendc::store_elements(data, length, value);
}

template <typename T>
using Column = Eigen::Array<compute_t<T>, Eigen::Dynamic, 1>;

// The float types the advanced math operators accept.
template <typename T>
inline constexpr bool is_half_or_float = std::is_same_v<T, float> || std::is_same_v<T, ::half>;

// dst = f(src) over the first `count` elements; `tmp` is the sharedTmpBuffer or null (stack buffer).
template <typename T, typename F>
inline void unary_elementwise(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                              uint64_t min_tmp, uint64_t count, F f) {
    AdvancedCall call(api);
    const T* s = call.in("srcTensor", src, count, "calCount");
    T* d = call.out("dstTensor", dst, count, "calCount");
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, tiling);
    } else {
        call.stack(min_tmp, tiling);
    }
    call.issue();
    const int64_t n = static_cast<int64_t>(count);
    out(d, n, Column<T>(f(in(s, n))));
}

// dst = f(src0, src1) over the first `count` elements.
template <typename T, typename F>
inline void binary_elementwise(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
                               const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                               const AscendC::LocalTensor<uint8_t>* tmp, uint64_t min_tmp, uint64_t count, F f) {
    AdvancedCall call(api);
    const T* a = call.in("src0Tensor", src0, count, "calCount");
    const T* b = call.in("src1Tensor", src1, count, "calCount");
    T* d = call.out("dstTensor", dst, count, "calCount");
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, tiling);
    } else {
        call.stack(min_tmp, tiling);
    }
    call.issue();
    const int64_t n = static_cast<int64_t>(count);
    out(d, n, Column<T>(f(in(a, n), in(b, n))));
}

// A scalar function applied to each element of an array expression.
template <typename F>
inline auto each(F f) {
    return [f](const auto& x) {
        using Scalar = typename std::decay_t<decltype(x)>::Scalar;
        return x.unaryExpr([f](Scalar v) { return static_cast<Scalar>(f(v)); });
    };
}

}  // namespace canopy::adv

// The four forms CANN gives a unary operator: (dst, src, sharedTmpBuffer, calCount), (dst, src,
// sharedTmpBuffer), (dst, src, calCount), (dst, src); `min_tmp` is an expression of T (the minimum
// sharedTmpBuffer bytes), `f` maps a compute-precision array to the results.
#define CANOPY_ADV_UNARY(Name, tiling, min_tmp, f)                                                                     \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                \
        canopy::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, &sharedTmpBuffer, (min_tmp), calCount, f); \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer) {                                         \
        canopy::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, &sharedTmpBuffer, (min_tmp),               \
                                       srcTensor.GetSize(), f);                                                        \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const uint32_t calCount) {                                                             \
        canopy::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, nullptr, (min_tmp), calCount, f);          \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                    \
        canopy::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, nullptr, (min_tmp), srcTensor.GetSize(),   \
                                       f);                                                                             \
    }
