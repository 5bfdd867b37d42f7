#pragma once
// ReduceMax and ReduceMin (CANN adv_api/reduce/reduce.h) over a 2-D tile, the A2 forms:
// Pattern::Reduce::AR reduces each of srcShape[0] rows of srcShape[1] elements, RA reduces the
// srcShape[0] rows into one row of srcShape[1]. With srcInnerPad (required on the A2) the rows are
// padded to 32 bytes; dst holds one element per kept index.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/reduce_pattern.h"
#include "canopy/adv/sizes.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct R {};
struct AR {};
struct RA {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace canopy::adv {

template <typename T, typename pattern, bool isReuseSource, bool isMax>
inline void reduce_extreme(const char* api, const AscendC::LocalTensor<T>& dstTensor,
                           const AscendC::LocalTensor<T>& srcTensor, const AscendC::LocalTensor<uint8_t>* tmp,
                           const uint32_t srcShape[], bool srcInnerPad) {
    static_assert(std::is_same_v<pattern, AscendC::Pattern::Reduce::AR> ||
                      std::is_same_v<pattern, AscendC::Pattern::Reduce::RA>,
                  "the A2 reduces AR and RA patterns");
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "ReduceMax/Min support half and float");
    constexpr bool ar = std::is_same_v<pattern, AscendC::Pattern::Reduce::AR>;
    AdvancedCall call(api);
    const uint32_t first = srcShape[0];
    const uint32_t last = srcShape[1];
    call.require(srcInnerPad, "srcInnerPad must be true on this platform");
    call.require(first > 0 && last > 0, "srcShape [", first, ", ", last, "] must not be empty");
    const uint32_t stride = sizes::round_up(last, block_elems<T>);
    const T* src = isReuseSource ? call.inout("srcTensor", srcTensor, uint64_t(first - 1) * stride + last)
                                 : call.in("srcTensor", srcTensor, uint64_t(first - 1) * stride + last);
    const uint32_t outputs = ar ? first : last;
    T* dst = call.out("dstTensor", dstTensor, outputs);
    if (tmp != nullptr) call.tmp("sharedTmpBuffer", *tmp, sizes::reduce_extreme(first, last, sizeof(T), ar, isReuseSource));
    call.issue();
    auto pick = [](T a, T b) {
        const auto x = static_cast<compute_t<T>>(a);
        const auto y = static_cast<compute_t<T>>(b);
        return (isMax ? (y > x) : (y < x)) ? b : a;
    };
    std::vector<T> result(outputs);
    if constexpr (ar) {
        for (uint32_t r = 0; r < first; ++r) {
            T best = src[uint64_t(r) * stride];
            for (uint32_t c = 1; c < last; ++c) best = pick(best, src[uint64_t(r) * stride + c]);
            result[r] = best;
        }
    } else {
        for (uint32_t c = 0; c < last; ++c) {
            T best = src[c];
            for (uint32_t r = 1; r < first; ++r) best = pick(best, src[uint64_t(r) * stride + c]);
            result[c] = best;
        }
    }
    std::copy(result.begin(), result.end(), dst);
}

}  // namespace canopy::adv

namespace AscendC {

template <class T, class pattern, bool isReuseSource = false>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
                                 bool srcInnerPad) {
    canopy::adv::reduce_extreme<T, pattern, isReuseSource, true>("ReduceMax", dstTensor, srcTensor, &sharedTmpBuffer,
                                                                 srcShape, srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const uint32_t srcShape[], bool srcInnerPad) {
    canopy::adv::reduce_extreme<T, pattern, isReuseSource, true>("ReduceMax", dstTensor, srcTensor, nullptr, srcShape,
                                                                 srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
                                 bool srcInnerPad) {
    canopy::adv::reduce_extreme<T, pattern, isReuseSource, false>("ReduceMin", dstTensor, srcTensor, &sharedTmpBuffer,
                                                                  srcShape, srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const uint32_t srcShape[], bool srcInnerPad) {
    canopy::adv::reduce_extreme<T, pattern, isReuseSource, false>("ReduceMin", dstTensor, srcTensor, nullptr, srcShape,
                                                                  srcInnerPad);
}

}  // namespace AscendC
