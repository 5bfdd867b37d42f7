#pragma once
// CumSum (CANN's adv_api/math/cumsum.h): the running sum of an [outter, inner] tile along its
// first axis (down the rows) or its last axis (along each row), accumulated in float; optionally
// the last row of the result copied to lastRowTensor. inner is 32-byte aligned.
#include <cstdint>

#include "adv_api/math/cumsum_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};  // 32-byte aligned
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

}  // namespace AscendC

namespace canopy::adv {
template <typename T, const AscendC::CumSumConfig& config>
inline void cumsum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& lastRow,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                   const AscendC::CumSumInfo& info) {
    static_assert(is_half_or_float<T>, "CumSum supports half and float");
    AdvancedCall call("CumSum");
    if (info.outter == 0 || info.inner == 0 || (uint64_t(info.inner) * sizeof(T)) % 32 != 0) [[unlikely]] {
        fail_misuse("CumSum", "cumSumInfo {outter ", info.outter, ", inner ", info.inner,
                    "}: both must be positive and inner * sizeof(T) a multiple of 32 bytes");
    }
    const uint64_t count = uint64_t(info.outter) * info.inner;
    const T* s = call.in("srcTensor", src, count, "calCount");
    T* d = call.out("dstTensor", dst, count, "calCount");
    T* last = nullptr;
    if constexpr (config.outputLastRow) last = call.out("lastRowTensor", lastRow, info.inner, "calCount");
    const uint32_t min_tmp = sizes::cumsum_min(info.outter, info.inner, sizeof(T), config.isLastAxis);
    if (tmp != nullptr) {
        call.tmp("sharedTmpBuffer", *tmp, min_tmp, "GetCumSumMaxMinTmpSize");
    } else {
        call.stack(min_tmp, "GetCumSumMaxMinTmpSize");
    }
    call.issue();
    const int64_t rows = info.outter;
    const int64_t cols = info.inner;
    using Matrix = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Matrix values = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(s, rows, cols)
                        .template cast<float>();
    if constexpr (config.isLastAxis) {
        for (int64_t c = 1; c < cols; ++c) values.col(c) += values.col(c - 1);
    } else {
        for (int64_t r = 1; r < rows; ++r) values.row(r) += values.row(r - 1);
    }
    const Eigen::ArrayXf flat = Eigen::Map<const Eigen::ArrayXf>(values.data(), rows * cols);
    out(d, rows * cols, flat);
    if constexpr (config.outputLastRow) out(last, cols, Eigen::ArrayXf(flat.tail(cols)));
}
}  // namespace canopy::adv

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
    canopy::adv::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo);
}

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo) {
    canopy::adv::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo);
}

}  // namespace AscendC
