#pragma once
// The A2's region-proposal helpers of CANN's basic_api/kernel_operator_proposal_intf.h that the
// sort samples use around Sort32: Concat (on the A2 the scores are sorted in place, so the
// "concatenated" tensor is the source itself), Sort<T, isFullSort> (Sort32 on every 32 elements,
// then, for a full sort, the merge of all groups into one descending list, the earlier group first
// on equal scores), Extract (the scores and indices of sorted (score, index) pairs), GetSortLen and
// GetSortOffset. A pair takes 8 bytes as in sort.h.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "canopy/kernel/ascendc/adv_call.h"
#include "canopy/kernel/ascendc/sort.h"

namespace AscendC {

template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
    return elemCount * uint32_t(canopy::kernel::ascendc::kProposalBytes) / sizeof(T);
}
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    return elemOffset * uint32_t(canopy::kernel::ascendc::kProposalBytes) / sizeof(T);
}

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime) {
    canopy::kernel::ascendc::require_sort_type<T>();
    (void)tmp;
    if (repeatTime < 0 || repeatTime > MAX_REPEAT_TIMES) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("Concat", "repeatTime ", repeatTime, " is outside [0, ",
                                              MAX_REPEAT_TIMES, "]");
    }
    concat = src;
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime) {
    using namespace canopy::kernel::ascendc;
    require_sort_type<T>();
    Sort32(dst, concat, index, repeatTime);
    if constexpr (isFullSort) {
        if (repeatTime <= 1) return;
        AdvancedCall call("Sort");
        const uint64_t pairs = uint64_t(repeatTime) * 32;
        const uint64_t bytes = pairs * kProposalBytes;
        T* out = call.inout("dst", dst, bytes / sizeof(T));
        call.tmp("tmp", tmp, bytes);  // the merge needs room for every pair
        call.issue();
        auto* proposals = reinterpret_cast<std::byte*>(out);
        std::vector<uint32_t> order(pairs);
        std::iota(order.begin(), order.end(), 0u);
        // The groups are sorted already: a stable sort by score keeps equal scores in group order.
        std::stable_sort(order.begin(), order.end(), [proposals](uint32_t a, uint32_t b) {
            return proposal_score<T>(proposals + a * kProposalBytes) > proposal_score<T>(proposals + b * kProposalBytes);
        });
        std::vector<std::byte> merged(bytes);
        for (uint64_t i = 0; i < pairs; ++i) {
            std::memcpy(merged.data() + i * kProposalBytes, proposals + order[i] * kProposalBytes, kProposalBytes);
        }
        std::memcpy(proposals, merged.data(), bytes);
    }
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime) {
    using namespace canopy::kernel::ascendc;
    require_sort_type<T>();
    AdvancedCall call("Extract");
    call.require(repeatTime >= 0 && repeatTime <= MAX_REPEAT_TIMES, "repeatTime ", repeatTime, " is outside [0, ",
                 MAX_REPEAT_TIMES, "]");
    const uint64_t pairs = uint64_t(repeatTime) * 32;
    const T* in = call.in("sorted", sorted, pairs * kProposalBytes / sizeof(T));
    T* values = call.out("dstValue", dstValue, pairs);
    uint32_t* indices = dstIndex.GetSize() > 0 ? call.out("dstIndex", dstIndex, pairs) : nullptr;
    call.issue();
    const auto* proposals = reinterpret_cast<const std::byte*>(in);
    for (uint64_t i = 0; i < pairs; ++i) {
        std::memcpy(static_cast<void*>(values + i), proposals + i * kProposalBytes, sizeof(T));
        if (indices) std::memcpy(indices + i, proposals + i * kProposalBytes + 4, 4);
    }
}

}  // namespace AscendC
