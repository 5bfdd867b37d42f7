#pragma once
// TopK (CANN adv_api/sort/topk.h), the A2's merge-sort form: for each of topKInfo.outter rows of
// topKInfo.inner elements (the first n valid), the k largest (isLargest) or smallest values, in
// that order (equal values: the earlier element first), into rows of k rounded up to 32 bytes of
// values and of int32 indices. The index of an element is its column, or srcIndexLocal's entry for
// it when isInitIndex (one row of inner indices in normal mode, one per row in small mode). With
// isHasfinish, a row whose finishLocal entry is true gets n for every index. TOPK_NSMALL is the
// mode for inner == 32.
#include "adv_api/sort/topk_tilingdata.h"
#include "canopy/adv/kernel_common.h"
#include "canopy/adv/sizes.h"

namespace AscendC {

#ifndef CANOPY_TOPK_TYPES_DEFINED
#define CANOPY_TOPK_TYPES_DEFINED
enum class TopKMode {
    TOPK_NORMAL,
    TOPK_NSMALL,
};
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;  // n rounded up to 32 bytes
    int32_t n;      // the valid elements of a row
};
#endif

}  // namespace AscendC

namespace canopy::adv {

template <typename T, bool isInitIndex, bool isHasfinish, bool isReuseSrc, AscendC::TopKMode topkMode,
          const AscendC::TopKConfig& config>
inline void topk(const AscendC::LocalTensor<T>& dstValueLocal, const AscendC::LocalTensor<int32_t>& dstIndexLocal,
                 const AscendC::LocalTensor<T>& srcLocal, const AscendC::LocalTensor<int32_t>& srcIndexLocal,
                 const AscendC::LocalTensor<bool>& finishLocal, const AscendC::LocalTensor<uint8_t>* tmp,
                 const int32_t k, const AscendC::tiling::TopkTiling& tiling, const AscendC::TopKInfo& info,
                 const bool isLargest) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "TopK on the A2 takes half or float");
    static_assert(config.algo == AscendC::TopKAlgo::MERGE_SORT, "the A2 selects by merge sort");
    constexpr bool small = topkMode == AscendC::TopKMode::TOPK_NSMALL;
    AdvancedCall call("TopK");
    call.require(!(small && isHasfinish), "TOPK_NSMALL takes no finish flags (isHasfinish must be false)");
    const int32_t rows = info.outter;
    const int32_t inner = info.inner;
    const int32_t n = info.n;
    call.require(rows >= 1 && inner > 0 && inner * int32_t(sizeof(T)) % 32 == 0, "topKInfo {outter ", rows,
                 ", inner ", inner, "} must be positive with 32-byte rows");
    call.require(n >= 1 && n <= inner, "topKInfo.n ", n, " must be in [1, inner ", inner, "]");
    call.require(k >= 1 && k <= n, "k ", k, " must be in [1, n ", n, "]");
    if constexpr (small) call.require(inner == 32, "TOPK_NSMALL needs inner 32, not ", inner);
    call.require(tiling.allDataSize == rows * inner, "the tiling was computed for ", tiling.allDataSize,
                 " elements but topKInfo has ", rows, " x ", inner, " (was TopKTilingFunc called?)");
    const int32_t value_row = (k * int32_t(sizeof(T)) + 31) / 32 * 32 / int32_t(sizeof(T));
    const int32_t index_row = (k + 7) / 8 * 8;
    const T* src = isReuseSrc ? call.inout("srcLocal", srcLocal, uint64_t(rows) * inner)
                              : call.in("srcLocal", srcLocal, uint64_t(rows) * inner);
    const int32_t* src_index =
        isInitIndex ? call.in("srcIndexLocal", srcIndexLocal, uint64_t(small ? rows * inner : inner)) : nullptr;
    const bool* finish = isHasfinish ? call.in("finishLocal", finishLocal, uint64_t(rows)) : nullptr;
    T* values = call.out("dstValueLocal", dstValueLocal, uint64_t(rows - 1) * value_row + k);
    int32_t* indices = call.out("dstIndexLocal", dstIndexLocal, uint64_t(rows - 1) * index_row + k);
    if (tmp) call.tmp("tmpLocal", *tmp, sizes::topk_min(inner, rows, isInitIndex, small, isLargest));
    call.issue();
    std::vector<int32_t> order(n);
    for (int32_t r = 0; r < rows; ++r) {
        const T* row = src + int64_t(r) * inner;
        for (int32_t i = 0; i < n; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [row, isLargest](int32_t a, int32_t b) {
            const float x = static_cast<float>(row[a]);
            const float y = static_cast<float>(row[b]);
            return isLargest ? x > y : x < y;
        });
        const bool done = finish != nullptr && finish[r];
        for (int32_t j = 0; j < k; ++j) {
            values[int64_t(r) * value_row + j] = row[order[j]];
            int32_t index = order[j];
            if (src_index) index = src_index[(small ? int64_t(r) * inner : 0) + order[j]];
            indices[int64_t(r) * index_row + j] = done ? n : index;
        }
    }
}

}  // namespace canopy::adv

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                            const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
    canopy::adv::topk<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, &tmpLocal, k, tilling, topKInfo, isLargest);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                            const TopKInfo& topKInfo, const bool isLargest = true) {
    canopy::adv::topk<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, nullptr, k, tilling, topKInfo, isLargest);
}

}  // namespace AscendC
