#pragma once
// Sorting on UB tiles: Sort32 sorts each repeat's 32 scores in descending order into (score, index)
// pairs; MrgSort merges up to four sorted queues of such pairs into one.
//
// A pair takes 8 bytes whatever the score type: a float score in the low 4 bytes, a half score in
// the low 2 (the next 2 reserved), the uint32 index in the high 4. Equal scores keep their order
// (the earlier element, or the element of the earlier queue, first).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn),
          repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                              const LocalTensor<T>& src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

inline constexpr uint64_t kProposalBytes = 8;

template <typename T>
inline compute_t<T> proposal_score(const std::byte* proposal) {
    T score;
    std::memcpy(static_cast<void*>(&score), proposal, sizeof(T));
    return static_cast<compute_t<T>>(score);
}

template <typename T>
inline void require_sort_type() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "sorting works on half and float scores");
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime) {
    using namespace canopy::kernel::ascendc;
    require_sort_type<T>();
    constexpr int64_t kSorted = 32;
    if (repeatTime < 0 || repeatTime > MAX_REPEAT_TIMES) [[unlikely]] {
        fail_misuse("Sort32", "repeatTime ", repeatTime, " is outside [0, ", MAX_REPEAT_TIMES, "]");
    }
    require_vector_tensor(dst, "Sort32", "dst");
    require_vector_tensor(src0, "Sort32", "src0");
    require_vector_tensor(src1, "Sort32", "src1");
    const int64_t elements = int64_t(repeatTime) * kSorted;
    require_elements(src0, elements, "Sort32", "src0");
    require_elements(src1, elements, "Sort32", "src1");
    const uint64_t dst_bytes = uint64_t(elements) * kProposalBytes;
    require_elements(dst, int64_t(dst_bytes / sizeof(T)), "Sort32", "dst");
    if (repeatTime == 0) return;
    access_ub("Sort32", "src0", Access::read, reinterpret_cast<const std::byte*>(src0.landed_address()),
              elements * sizeof(T));
    access_ub("Sort32", "src1", Access::read, reinterpret_cast<const std::byte*>(src1.landed_address()), elements * 4);
    access_ub("Sort32", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), dst_bytes);
    auto* out = reinterpret_cast<std::byte*>(dst.landed_address());
    for (int64_t repeat = 0; repeat < repeatTime; ++repeat) {
        const T* scores = src0.landed_address() + repeat * kSorted;
        const uint32_t* indices = src1.landed_address() + repeat * kSorted;
        std::array<int32_t, kSorted> order;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [scores](int32_t a, int32_t b) {
            return compute_t<T>(scores[a]) > compute_t<T>(scores[b]);
        });
        for (int64_t i = 0; i < kSorted; ++i) {
            std::byte* proposal = out + (repeat * kSorted + i) * kProposalBytes;
            std::memset(proposal, 0, kProposalBytes);
            std::memcpy(proposal, static_cast<const void*>(scores + order[i]), sizeof(T));
            std::memcpy(proposal + 4, indices + order[i], 4);
        }
    }
}

// Merges the queues validBit names (3: two, 7: three, 15: four), repeatTimes times: each repeat
// merges four equal, contiguous queues and moves on by their total length, in src and dst.
template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    using namespace canopy::kernel::ascendc;
    require_sort_type<T>();
    int64_t queues = 0;
    switch (params.validBit) {
        case 0b11: queues = 2; break;
        case 0b111: queues = 3; break;
        case 0b1111: queues = 4; break;
        default: fail_misuse("MrgSort", "validBit ", params.validBit, " is not 3, 7 or 15");
    }
    const LocalTensor<T>* lists[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    int64_t total = 0;
    for (int64_t q = 0; q < queues; ++q) {
        if (params.elementLengths[q] > 4095) [[unlikely]] {
            fail_misuse("MrgSort", "elementLengths[", q, "] ", params.elementLengths[q], " is more than 4095");
        }
        total += params.elementLengths[q];
    }
    const int64_t repeats = params.repeatTimes;
    if (repeats > 1 && (queues != 4 || params.ifExhaustedSuspension ||
                        params.elementLengths[0] != params.elementLengths[1] ||
                        params.elementLengths[0] != params.elementLengths[2] ||
                        params.elementLengths[0] != params.elementLengths[3])) [[unlikely]] {
        fail_misuse("MrgSort", "repeatTimes ", repeats,
                    " needs four queues of one length, validBit 15 and ifExhaustedSuspension false");
    }
    require_vector_tensor(dst, "MrgSort", "dst");
    const uint64_t queue_bytes = uint64_t(params.elementLengths[0]) * kProposalBytes;
    for (int64_t q = 0; q < queues; ++q) {
        const LocalTensor<T>& list = *lists[q];
        require_memory(list, Hardware::UB, "MrgSort", "src");
        // With repeats, queue q of repeat r sits r whole groups of four queues further on.
        const uint64_t reach = uint64_t(repeats - 1) * 4 * queue_bytes + uint64_t(params.elementLengths[q]) * kProposalBytes;
        if (reach > uint64_t(list.GetSize()) * sizeof(T)) [[unlikely]] {
            fail_misuse("MrgSort", "queue ", q + 1, " reaches ", reach, " bytes but its LocalTensor holds ",
                        uint64_t(list.GetSize()) * sizeof(T), " bytes");
        }
        if (repeats > 0) {
            access_ub("MrgSort", "src", Access::read, reinterpret_cast<const std::byte*>(list.landed_address()), reach);
        }
    }
    const uint64_t dst_bytes = uint64_t(repeats) * uint64_t(total) * kProposalBytes;
    require_elements(dst, int64_t(dst_bytes / sizeof(T)), "MrgSort", "dst");
    if (repeats == 0) return;
    access_ub("MrgSort", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), dst_bytes);
    auto* out = reinterpret_cast<std::byte*>(dst.landed_address());
    for (int64_t repeat = 0; repeat < repeats; ++repeat) {
        const std::byte* heads[4] = {};
        int64_t left[4] = {};
        for (int64_t q = 0; q < queues; ++q) {
            heads[q] = reinterpret_cast<const std::byte*>(lists[q]->GetPhyAddr()) + repeat * 4 * queue_bytes;
            left[q] = params.elementLengths[q];
        }
        for (int64_t written = 0; written < total; ++written) {
            int64_t best = -1;
            for (int64_t q = 0; q < queues; ++q) {
                if (left[q] == 0) continue;
                if (best < 0 || proposal_score<T>(heads[q]) > proposal_score<T>(heads[best])) best = q;
            }
            if (params.ifExhaustedSuspension && best >= 0) {
                bool exhausted = false;
                for (int64_t q = 0; q < queues; ++q) exhausted = exhausted || left[q] == 0;
                if (exhausted) break;
            }
            std::memcpy(out, heads[best], kProposalBytes);
            out += kProposalBytes;
            heads[best] += kProposalBytes;
            --left[best];
        }
    }
}

}  // namespace AscendC
