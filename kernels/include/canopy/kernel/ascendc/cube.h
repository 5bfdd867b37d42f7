#pragma once
// The cube path of an A2 core: LoadData (L1 -> L0A / L0B), Mmad (L0A x L0B -> L0C) and Fixpipe
// (L0C -> GM), over the hardware's fractal layouts, so that cube kernels written for the NPU run
// unchanged.
//
// Layouts (C0 = 32 / sizeof(element): 16 for half, 8 for float, 32 for int8; fractals are 512 bytes):
//   L1 after DataCopy with Nd2NzParams: "Nz", column blocks of C0 columns, each block row-major.
//   L0A: "Zz", fractals of 16 rows x C0 columns, row-major fractal order (m blocks, then k blocks),
//        each fractal row-major.
//   L0B: fractals of C0 (k) x 16 (n), ordered k block by k block, each stored transposed (n-major):
//        element (k, n) at ((k / C0) * nFractals + n / 16) * 16 * C0 + (n % 16) * C0 + k % C0.
//   L0C: "Nz" of 16 x 16 fractals: column block n / 16 holds (m rounded up to 16) rows of 16
//        accumulator elements.
// Mmad unpacks the L0A / L0B fractals into dense matrices and multiplies them with Eigen's GEMM in
// float (int32 for int8), then adds into (or overwrites) the L0C blocks: the fp32 accumulation of
// the cube unit, vectorised.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace AscendC {

struct LoadData2DParams {
    __aicore__ LoadData2DParams() {}
    __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                                const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn,
                                const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}

    uint16_t startIndex = 0;  // first source fractal
    uint16_t dstGap = 0;      // fractals skipped between two destination fractals
    uint16_t srcStride = 0;   // fractals from one source fractal to the next
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;  // fractals moved
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
    __aicore__ MmadParams() {}
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
                          const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
                          const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
                          const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}

    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;  // older spelling of "accumulate onto what L0C holds"
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;   // true: initial C from the bias table (C2)
    bool cmatrixInitVal = true;   // true: C starts at zero; false: accumulate onto L0C
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeConfig {
    CO2Layout format;
    __aicore__ constexpr FixpipeConfig(CO2Layout formatIn) : format(formatIn) {}
    __aicore__ constexpr FixpipeConfig(CO2Layout formatIn, bool) : format(formatIn) {}
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
    __aicore__ FixpipeParamsV220() {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                                 const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                                 const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn),
          dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn) {}

    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;  // rows (of 16 elements) between L0C column blocks
    uint32_t dstStride = 0;  // elements between GM rows
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

constexpr uint64_t kFractalBytes = 512;

// The accumulator type of the cube unit for inputs of type T.
template <typename T>
using accumulator_t = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;

template <typename T>
constexpr bool cube_input = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16> ||
                            std::is_same_v<T, float> || std::is_same_v<T, int8_t>;

// Per-thread dense operands for Mmad, reused across calls (no allocation on the hot path).
template <typename Accumulator>
struct MmadScratch {
    Eigen::Matrix<Accumulator, Eigen::Dynamic, Eigen::Dynamic> a;        // m x k
    Eigen::Matrix<Accumulator, Eigen::Dynamic, Eigen::Dynamic> b;        // k x n
    Eigen::Matrix<Accumulator, Eigen::Dynamic, Eigen::Dynamic> product;  // m x n
};

template <typename Accumulator>
inline MmadScratch<Accumulator>& mmad_scratch() {
    thread_local MmadScratch<Accumulator> scratch;
    return scratch;
}

template <typename Matrix>
inline void ensure_size(Matrix& matrix, Eigen::Index rows, Eigen::Index cols) {
    if (matrix.rows() != rows || matrix.cols() != cols) matrix.resize(rows, cols);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Moves `repeatTimes` 512-byte fractals from L1 to L0A or L0B, optionally transposing each (2-byte
// elements only, as on the A2).
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& loadDataParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "LoadData";
    require_memory(src, Hardware::L1, api, "src");
    if (dst.memory() != Hardware::L0A && dst.memory() != Hardware::L0B) [[unlikely]] {
        fail_misuse(api, "dst is a ", PositionName(dst.position()), " tensor; LoadData2D fills A2 (L0A) or B2 (L0B)");
    }
    const LoadData2DParams& p = loadDataParams;
    if (p.repeatTimes == 0) return;
    if (p.ifTranspose && sizeof(T) != 2) [[unlikely]] {
        fail_misuse(api, "ifTranspose needs 2-byte elements; these are ", sizeof(T), " bytes");
    }
    constexpr uint64_t fractal_elements = kFractalBytes / sizeof(T);
    const uint64_t last = p.repeatTimes - 1;
    const uint64_t src_end = (uint64_t(p.startIndex) + last * p.srcStride + 1) * fractal_elements;
    const uint64_t dst_end = (last * (uint64_t(p.dstGap) + 1) + 1) * fractal_elements;
    require_elements(src, int64_t(src_end), api, "src (fractals read)");
    require_elements(dst, int64_t(dst_end), api, "dst (fractals written)");
    using Fractal = Eigen::Map<Eigen::Matrix<T, 16, 16, Eigen::RowMajor>>;
    using ConstFractal = Eigen::Map<const Eigen::Matrix<T, 16, 16, Eigen::RowMajor>>;
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const T* from = src.GetPhyAddr() + (p.startIndex + r * p.srcStride) * fractal_elements;
        T* to = dst.GetPhyAddr() + r * (uint64_t(p.dstGap) + 1) * fractal_elements;
        if constexpr (sizeof(T) == 2) {
            if (p.ifTranspose) {
                Fractal transposed(to);
                transposed = ConstFractal(from).transpose();
                continue;
            }
        }
        std::memcpy(to, from, kFractalBytes);
    }
}

// C (L0C, Nz) = [C +] A (L0A, Zz) x B (L0B), for an m x k by k x n product.
template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& mmadParams) {
    using namespace canopy::kernel::ascendc;
    static_assert(std::is_same_v<U, S>, "Mmad takes A and B of the same element type");
    static_assert(cube_input<U>, "Mmad inputs are half, bfloat16_t, float or int8_t");
    static_assert(std::is_same_v<T, accumulator_t<U>>, "Mmad accumulates int8 into int32_t, the rest into float");
    using Accumulator = T;
    const char* api = "Mmad";
    require_memory(fm, Hardware::L0A, api, "fm (A)");
    require_memory(filter, Hardware::L0B, api, "filter (B)");
    require_memory(dst, Hardware::L0C, api, "dst (C)");
    const MmadParams& p = mmadParams;
    if (p.cmatrixSource) [[unlikely]] {
        fail_misuse(api, "cmatrixSource = 1 (initial C from the C2 bias table) is not modelled by Canopy");
    }
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    constexpr int64_t c0 = kFractalBytes / 16 / sizeof(U);  // k columns per A fractal
    const int64_t m_fractals = (p.m + 15) / 16;
    const int64_t n_fractals = (p.n + 15) / 16;
    const int64_t k_fractals = (p.k + c0 - 1) / c0;
    require_elements(fm, m_fractals * k_fractals * 16 * c0, api, "fm (A) for the given m and k");
    require_elements(filter, k_fractals * n_fractals * 16 * c0, api, "filter (B) for the given k and n");
    require_elements(dst, m_fractals * n_fractals * 256, api, "dst (C) for the given m and n");

    MmadScratch<Accumulator>& scratch = mmad_scratch<Accumulator>();
    ensure_size(scratch.a, m_fractals * 16, k_fractals * c0);
    ensure_size(scratch.b, k_fractals * c0, n_fractals * 16);
    ensure_size(scratch.product, p.m, p.n);
    using AFractal = Eigen::Map<const Eigen::Matrix<U, 16, c0, Eigen::RowMajor>>;  // 16 (m) x c0 (k)
    using BFractal = Eigen::Map<const Eigen::Matrix<U, 16, c0, Eigen::RowMajor>>;  // 16 (n) x c0 (k)
    const U* a = fm.GetPhyAddr();
    for (int64_t mb = 0; mb < m_fractals; ++mb) {
        for (int64_t kb = 0; kb < k_fractals; ++kb) {
            scratch.a.template block<16, c0>(mb * 16, kb * c0) =
                AFractal(a + (mb * k_fractals + kb) * 16 * c0).template cast<Accumulator>();
        }
    }
    const U* b = filter.GetPhyAddr();
    for (int64_t kb = 0; kb < k_fractals; ++kb) {
        for (int64_t nb = 0; nb < n_fractals; ++nb) {
            scratch.b.template block<c0, 16>(kb * c0, nb * 16) =
                BFractal(b + (kb * n_fractals + nb) * 16 * c0).transpose().template cast<Accumulator>();
        }
    }
    scratch.product.noalias() = scratch.a.topLeftCorner(p.m, p.k) * scratch.b.topLeftCorner(p.k, p.n);

    // Into the Nz accumulator: column block nb holds m_fractals * 16 rows of 16 elements.
    const bool accumulate = !p.cmatrixInitVal || p.isBias;
    using CBlock = Eigen::Map<Eigen::Matrix<Accumulator, Eigen::Dynamic, 16, Eigen::RowMajor>>;
    for (int64_t nb = 0; nb < n_fractals; ++nb) {
        const int64_t columns = std::min<int64_t>(16, p.n - nb * 16);
        CBlock block(dst.GetPhyAddr() + nb * m_fractals * 256, p.m, 16);
        if (accumulate) {
            block.leftCols(columns) += scratch.product.middleCols(nb * 16, columns);
        } else {
            block.leftCols(columns) = scratch.product.middleCols(nb * 16, columns);
        }
    }
}

// Moves an mSize x nSize result out of L0C (Nz, column blocks srcStride rows apart) to GM in row-major
// (ND) order, dstStride elements per row, converting per quantPre and applying ReLU if asked.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "Fixpipe";
    require_memory(src, Hardware::L0C, api, "src");
    if constexpr (config.format != CO2Layout::ROW_MAJOR) {
        fail_misuse(api, "only the row-major (ND) output layout is modelled by Canopy");
    }
    const FixpipeParamsV220& p = intriParams;
    if (p.ndNum > 1) [[unlikely]] fail_misuse(api, "ndNum ", p.ndNum, " > 1 is not modelled by Canopy");
    const bool converts = (p.quantPre == NoQuant && std::is_same_v<T, U>) ||
                          (p.quantPre == F322F16 && std::is_same_v<T, half> && std::is_same_v<U, float>) ||
                          (p.quantPre == F322BF16 && std::is_same_v<T, bfloat16_t> && std::is_same_v<U, float>);
    if (!converts) [[unlikely]] {
        fail_misuse(api, "quantPre ", int(p.quantPre), " with ", sizeof(U), "-byte L0C elements and ", sizeof(T),
                    "-byte GM elements is not modelled (NoQuant, F322F16 and F322BF16 are)");
    }
    if (p.mSize == 0 || p.nSize == 0) return;
    const int64_t n_blocks = (p.nSize + 15) / 16;
    if (p.srcStride < p.mSize) [[unlikely]] {
        fail_misuse(api, "srcStride ", p.srcStride, " rows is less than mSize ", p.mSize);
    }
    if (p.dstStride < p.nSize) [[unlikely]] {
        fail_misuse(api, "dstStride ", p.dstStride, " elements is less than nSize ", p.nSize);
    }
    require_elements(src, (n_blocks - 1) * int64_t(p.srcStride) * 16 + int64_t(p.mSize) * 16, api, "src");
    T* to = dst.CheckedSpan(0, uint64_t(p.mSize - 1) * p.dstStride + p.nSize, true, api);
    using Block = Eigen::Map<const Eigen::Matrix<U, Eigen::Dynamic, 16, Eigen::RowMajor>>;
    using Rows = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
    for (int64_t nb = 0; nb < n_blocks; ++nb) {
        const int64_t columns = std::min<int64_t>(16, p.nSize - nb * 16);
        Block block(src.GetPhyAddr() + nb * int64_t(p.srcStride) * 16, p.mSize, 16);
        Rows out(to + nb * 16, p.mSize, columns, Eigen::OuterStride<>(p.dstStride));
        if (p.reluEn) {
            out = block.leftCols(columns).cwiseMax(U(0)).template cast<T>();
        } else {
            out = block.leftCols(columns).template cast<T>();
        }
    }
}

}  // namespace AscendC
