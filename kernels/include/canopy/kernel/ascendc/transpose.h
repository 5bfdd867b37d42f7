#pragma once
// Layout changes on UB tiles: Transpose of one 16 x 16 matrix of 16-bit elements, the extended
// Transpose between NCHW and NHWC (16-bit elements), and TransDataTo5HD, which per repeat reads 16
// data blocks from 16 addresses and writes their 16 x 16 transpose (16-bit elements) to 16 others.
#include <cstdint>
#include <cstring>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace AscendC {

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

struct TransDataTo5HDParams {
    constexpr __aicore__ TransDataTo5HDParams() = default;
    constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                              const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                              const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
    constexpr __aicore__ TransposeParamsExt() = default;
    constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                            const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// A 32-byte block at `address` (a UB address), checked to lie in the running block's UB.
inline std::byte* ub_block(uint64_t address, const char* api, const char* role) {
    auto* block = reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(address));
    if (address % AscendC::ONE_BLK_SIZE != 0) [[unlikely]] {
        fail_misuse(api, role, " address is not 32-byte aligned");
    }
    return block;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// dst = the transpose of the 16 x 16 matrix src.
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2, "Transpose of a 16 x 16 matrix works on 16-bit elements");
    constexpr int64_t kSide = 16;
    require_vector_tensor(dst, "Transpose", "dst");
    require_vector_tensor(src, "Transpose", "src");
    require_elements(src, kSide * kSide, "Transpose", "src");
    require_elements(dst, kSide * kSide, "Transpose", "dst");
    access_ub("Transpose", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()), 512);
    access_ub("Transpose", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()), 512);
    T matrix[kSide * kSide];
    std::memcpy(static_cast<void*>(matrix), src.landed_address(), sizeof(matrix));
    using Square = Eigen::Map<Eigen::Array<T, kSide, kSide, Eigen::RowMajor>>;
    Square(dst.landed_address()) = Square(matrix).transpose();
}

// NCHW <-> NHWC of 16-bit elements; sharedTmpBuffer is where the NPU stages the blocks.
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& params) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2, "the extended Transpose works on 16-bit elements on the A2");
    const bool to_nhwc = params.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    if (!to_nhwc && params.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) [[unlikely]] {
        fail_misuse("Transpose", "transposeType ", int(params.transposeType),
                    " is not TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW");
    }
    require_vector_tensor(dst, "Transpose", "dst");
    require_vector_tensor(src, "Transpose", "src");
    require_memory(sharedTmpBuffer, Hardware::UB, "Transpose", "sharedTmpBuffer");
    const int64_t n = params.nSize, c = params.cSize, hw = int64_t(params.hSize) * params.wSize;
    const int64_t count = n * c * hw;
    require_elements(src, count, "Transpose", "src");
    require_elements(dst, count, "Transpose", "dst");
    access_ub("Transpose", "src", Access::read, reinterpret_cast<const std::byte*>(src.landed_address()),
              count * sizeof(T));
    access_ub("Transpose", "dst", Access::write, reinterpret_cast<const std::byte*>(dst.landed_address()),
              count * sizeof(T));
    // Per image, NCHW is a C x HW matrix and NHWC its HW x C transpose.
    using Matrix = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    for (int64_t image = 0; image < n; ++image) {
        const T* in = src.landed_address() + image * c * hw;
        T* out = dst.landed_address() + image * c * hw;
        const int64_t rows = to_nhwc ? c : hw, cols = to_nhwc ? hw : c;
        const Matrix staged = Eigen::Map<const Matrix>(in, rows, cols);
        Eigen::Map<Matrix>(out, cols, rows) = staged.transpose();
    }
}

// Each repeat: dst block i element j = src block j element i (16-bit elements), for the 16
// addresses in each list; then every src address moves srcRepStride blocks on, every dst address
// dstRepStride blocks.
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
    using namespace canopy::kernel::ascendc;
    static_assert(sizeof(T) == 2, "Canopy models TransDataTo5HD for 16-bit elements");
    constexpr int64_t kSide = 16;
    for (int64_t repeat = 0; repeat < nchwconvParams.repeatTimes; ++repeat) {
        T tile[kSide][kSide];
        for (int64_t j = 0; j < kSide; ++j) {
            std::byte* block = ub_block(srcList[j] + uint64_t(repeat) * nchwconvParams.srcRepStride * ONE_BLK_SIZE,
                                        "TransDataTo5HD", "src");
            access_ub("TransDataTo5HD", "src", Access::read, block, ONE_BLK_SIZE);
            std::memcpy(static_cast<void*>(tile[j]), block, ONE_BLK_SIZE);
        }
        for (int64_t i = 0; i < kSide; ++i) {
            std::byte* block = ub_block(dstList[i] + uint64_t(repeat) * nchwconvParams.dstRepStride * ONE_BLK_SIZE,
                                        "TransDataTo5HD", "dst");
            access_ub("TransDataTo5HD", "dst", Access::write, block, ONE_BLK_SIZE);
            T column[kSide];
            for (int64_t j = 0; j < kSide; ++j) column[j] = tile[j][i];
            std::memcpy(block, static_cast<const void*>(column), ONE_BLK_SIZE);
        }
    }
}

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE];
    uint64_t src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        canopy::kernel::ascendc::require_memory(dstList[i], Hardware::UB, "TransDataTo5HD", "dstList");
        canopy::kernel::ascendc::require_memory(srcList[i], Hardware::UB, "TransDataTo5HD", "srcList");
        dst[i] = reinterpret_cast<uint64_t>(dstList[i].landed_address());
        src[i] = reinterpret_cast<uint64_t>(srcList[i].landed_address());
    }
    TransDataTo5HD<T>(dst, src, nchwconvParams);
}

}  // namespace AscendC
