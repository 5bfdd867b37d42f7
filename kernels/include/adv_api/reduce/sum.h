#pragma once
// Sum (CANN adv_api/reduce/sum.h): the sum of the first n elements of each of `outter` rows of
// `inner` elements, dst[row]. The vector unit adds pairwise: adjacent pairs, then pairs of those
// sums, an odd last element carried to the next level, every partial sum rounded to T.
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;  // n rounded up to 32 bytes of T
    uint32_t n;      // the elements summed per row
};

}  // namespace AscendC

namespace canopy::adv {

// The pairwise sum of `count` values, each level rounded to T.
template <typename T>
inline T pairwise_sum(const T* values, int64_t count, std::vector<compute_t<T>>& scratch) {
    using C = compute_t<T>;
    if (count <= 0) return T(0);
    scratch.resize(size_t(count));
    for (int64_t i = 0; i < count; ++i) scratch[size_t(i)] = C(values[i]);
    int64_t n = count;
    while (n > 1) {
        const int64_t half = n / 2;
        for (int64_t i = 0; i < half; ++i) {
            scratch[size_t(i)] = C(T(scratch[size_t(2 * i)] + scratch[size_t(2 * i + 1)]));
        }
        if (n % 2 != 0) scratch[size_t(half)] = scratch[size_t(n - 1)];
        n = half + n % 2;
    }
    return T(scratch[0]);
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "Sum supports half and float");
    using namespace canopy::adv;
    AdvancedCall call("Sum");
    const uint32_t aligned = (sumParams.n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    call.require(sumParams.n >= 1 && sumParams.n <= sumParams.inner, "n ", sumParams.n,
                 " must be in [1, inner ", sumParams.inner, "]");
    call.require(sumParams.inner == aligned, "inner ", sumParams.inner, " must be n ", sumParams.n,
                 " rounded up to 32 bytes (", aligned, ")");
    call.require(sumParams.outter >= 1, "outter ", sumParams.outter, " must be at least 1");
    const T* src = call.in("srcTensor", srcTensor, uint64_t(sumParams.outter) * sumParams.inner);
    T* dst = call.out("dstTensor", dstTensor, sumParams.outter);
    call.tmp("sharedTmpBuffer", sharedTmpBuffer, sizes::sum(sumParams.n, sizeof(T)));
    call.issue();
    std::vector<compute_t<T>> scratch;
    for (uint32_t row = 0; row < sumParams.outter; ++row) {
        dst[row] = pairwise_sum(src + uint64_t(row) * sumParams.inner, sumParams.n, scratch);
    }
}

}  // namespace AscendC
