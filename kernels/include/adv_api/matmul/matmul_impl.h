#pragma once
// The high-level Matmul (AscendC::Matmul / MatmulImpl): C = A x B (+ bias) for one core's
// singleCoreM x singleCoreN x singleCoreK, its operands in GM (ND or NZ), in L1 (TSCM) or in the UB,
// its result to GM or to the UB, cast or quantized on the way out as the cube's fixpipe does.
//
// On the NPU the Matmul streams base blocks through L1 and L0 on the cube; here the tiling the
// kernel received is checked against what those memories hold (Init: the base block against L0A,
// L0B and L0C, the L1 depths against L1, reserved from the block's TPipe like the buffers the
// Matmul carves there), and the product is computed from the operands with one Eigen GEMM per call
// in the cube's accumulation type (float, int32 for int8 / int4 inputs). Iterate / GetTensorC hand
// out that product by base blocks in the tiling's order. Misuse the device would reject (a tiling
// inconsistent with the shapes or beyond the memories, Iterate or IterateAll before SetTensorA /
// SetTensorB, a GetTensorC without an Iterate) fails the launch with ACL_ERROR_RT_AICORE_EXCEPTION.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

#include "adv_api/matmul/kernel_cube_tiling.h"
#include "adv_api/matmul/matmul_config.h"
#include "basic_api/kernel_basic_intf.h"

namespace canopy::kernel::matmul {

using canopy::kernel::ascendc::fail_misuse;

template <typename T>
using Accumulator = canopy::kernel::ascendc::accumulator_t<T>;

template <typename T>
using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Bytes of `count` elements of T (int4: two to a byte).
template <typename T>
constexpr int64_t bytes_of(int64_t count) {
    return int64_t(canopy::kernel::ascendc::bytes_of<T>(uint64_t(count)));
}

// Elements of one 32-byte fractal row of T (C0).
template <typename T>
constexpr int64_t c0_of() {
    return int64_t(canopy::kernel::ascendc::elements_in<T>(32));
}

template <typename T>
inline float as_float(T value) {
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) {
        return float(int32_t(value));
    } else {
        return static_cast<float>(value);
    }
}

// Where an operand is: a GM address or a local tensor's address, with how it is laid out.
template <typename T>
struct Operand {
    const T* data = nullptr;  // element 0 of the operand (int4: the byte holding it)
    bool set = false;
    bool local = false;
    bool transposed = false;
};

// Reads element (row, column) of a matrix stored `rows` x `columns` (before any transpose) in
// `format`: ND rows `stride` elements apart; NZ column blocks of C0 columns, each `rows` rounded up
// to 16 rows high.
template <typename T>
inline auto element(const T* base, CubeFormat format, int64_t row, int64_t column, int64_t stride, int64_t rows) {
    int64_t index;
    if (format == CubeFormat::NZ) {
        constexpr int64_t c0 = c0_of<T>();
        const int64_t height = (rows + 15) / 16 * 16;
        index = (column / c0) * height * c0 + row * c0 + column % c0;
    } else {
        index = row * stride + column;
    }
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) {
        return canopy::kernel::ascendc::nibble_at(base, index);
    } else {
        return base[index];
    }
}

// Per-thread dense operands and product, reused across calls.
template <typename Acc>
struct Scratch {
    Dense<Acc> a, b, c;
};
template <typename Acc>
inline Scratch<Acc>& scratch() {
    thread_local Scratch<Acc> s;
    return s;
}

// An m x k (A) or k x n (B) operand as a dense Acc matrix. `rows` x `columns` is the stored
// matrix (k x m for a transposed A), `stride` its ND row length, `org_rows` its NZ height.
template <typename Acc, typename T>
inline void densify(Dense<Acc>& out, const T* base, CubeFormat format, bool transposed, int64_t rows,
                    int64_t columns, int64_t stride, int64_t org_rows) {
    // out is rows x columns of the logical (untransposed) operand.
    if (format != CubeFormat::NZ && !std::is_same_v<T, AscendC::int4b_t>) {
        if constexpr (!std::is_same_v<T, AscendC::int4b_t>) {
            using Stored = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
            if (!transposed) {
                Eigen::Map<const Stored, 0, Eigen::OuterStride<>> map(base, rows, columns, Eigen::OuterStride<>(stride));
                if constexpr (std::is_same_v<T, half>) {
                    out.resize(rows, columns);
                    for (int64_t r = 0; r < rows; ++r) {
                        for (int64_t c = 0; c < columns; ++c) out(r, c) = Acc(float(map(r, c)));
                    }
                } else {
                    out = map.template cast<Acc>();
                }
            } else {
                Eigen::Map<const Stored, 0, Eigen::OuterStride<>> map(base, columns, rows, Eigen::OuterStride<>(stride));
                if constexpr (std::is_same_v<T, half>) {
                    out.resize(rows, columns);
                    for (int64_t c = 0; c < columns; ++c) {
                        for (int64_t r = 0; r < rows; ++r) out(r, c) = Acc(float(map(c, r)));
                    }
                } else {
                    out = map.transpose().template cast<Acc>();
                }
            }
            return;
        }
    }
    out.resize(rows, columns);
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < columns; ++c) {
            const auto value = transposed ? element(base, format, c, r, stride, org_rows)
                                          : element(base, format, r, c, stride, org_rows);
            out(r, c) = Acc(as_float(value));
        }
    }
}

template <class Config>
inline constexpr bool is_static_tiling = std::is_same_v<std::decay_t<Config>, MatmulApiStaticTiling>;

__aicore__ constexpr MatmulConfig config_of(const MatmulConfig& config) { return config; }
__aicore__ constexpr MatmulConfig config_of(const MatmulApiStaticTiling& tiling) { return tiling.cfg; }

// The TCubeTiling of a constant tiling (fields it leaves at -1 become 0 or 1 where a count).
__aicore__ inline TCubeTiling to_tiling(const MatmulApiStaticTiling& s) {
    TCubeTiling t;
#define CANOPY_STATIC_TILING_FIELD(name) t.name = s.name;
    // Every field but the batch split (batchM / batchN / singleBatchM / singleBatchN), which a
    // constant tiling does not carry.
    CANOPY_STATIC_TILING_FIELD(usedCoreNum) CANOPY_STATIC_TILING_FIELD(M) CANOPY_STATIC_TILING_FIELD(N)
    CANOPY_STATIC_TILING_FIELD(Ka) CANOPY_STATIC_TILING_FIELD(Kb) CANOPY_STATIC_TILING_FIELD(singleCoreM)
    CANOPY_STATIC_TILING_FIELD(singleCoreN) CANOPY_STATIC_TILING_FIELD(singleCoreK) CANOPY_STATIC_TILING_FIELD(baseM)
    CANOPY_STATIC_TILING_FIELD(baseN) CANOPY_STATIC_TILING_FIELD(baseK) CANOPY_STATIC_TILING_FIELD(depthA1)
    CANOPY_STATIC_TILING_FIELD(depthB1) CANOPY_STATIC_TILING_FIELD(stepM) CANOPY_STATIC_TILING_FIELD(stepN)
    CANOPY_STATIC_TILING_FIELD(isBias) CANOPY_STATIC_TILING_FIELD(transLength) CANOPY_STATIC_TILING_FIELD(iterateOrder)
    CANOPY_STATIC_TILING_FIELD(shareMode) CANOPY_STATIC_TILING_FIELD(shareL1Size) CANOPY_STATIC_TILING_FIELD(shareL0CSize)
    CANOPY_STATIC_TILING_FIELD(shareUbSize) CANOPY_STATIC_TILING_FIELD(stepKa) CANOPY_STATIC_TILING_FIELD(stepKb)
    CANOPY_STATIC_TILING_FIELD(depthAL1CacheUB) CANOPY_STATIC_TILING_FIELD(depthBL1CacheUB) CANOPY_STATIC_TILING_FIELD(dbL0A)
    CANOPY_STATIC_TILING_FIELD(dbL0B) CANOPY_STATIC_TILING_FIELD(dbL0C) CANOPY_STATIC_TILING_FIELD(ALayoutInfoB)
    CANOPY_STATIC_TILING_FIELD(ALayoutInfoS) CANOPY_STATIC_TILING_FIELD(ALayoutInfoN) CANOPY_STATIC_TILING_FIELD(ALayoutInfoG)
    CANOPY_STATIC_TILING_FIELD(ALayoutInfoD) CANOPY_STATIC_TILING_FIELD(BLayoutInfoB) CANOPY_STATIC_TILING_FIELD(BLayoutInfoS)
    CANOPY_STATIC_TILING_FIELD(BLayoutInfoN) CANOPY_STATIC_TILING_FIELD(BLayoutInfoG) CANOPY_STATIC_TILING_FIELD(BLayoutInfoD)
    CANOPY_STATIC_TILING_FIELD(CLayoutInfoB) CANOPY_STATIC_TILING_FIELD(CLayoutInfoS1) CANOPY_STATIC_TILING_FIELD(CLayoutInfoN)
    CANOPY_STATIC_TILING_FIELD(CLayoutInfoG) CANOPY_STATIC_TILING_FIELD(CLayoutInfoS2) CANOPY_STATIC_TILING_FIELD(BatchNum)
    CANOPY_STATIC_TILING_FIELD(mxTypePara)
#undef CANOPY_STATIC_TILING_FIELD
    auto fix = [](int32_t& value, int32_t unset) {
        if (value < 0) value = unset;
    };
    fix(t.usedCoreNum, 1);
    fix(t.stepM, 1);
    fix(t.stepN, 1);
    fix(t.stepKa, 1);
    fix(t.stepKb, 1);
    fix(t.depthA1, 1);
    fix(t.depthB1, 1);
    fix(t.dbL0A, 1);
    fix(t.dbL0B, 1);
    fix(t.dbL0C, 1);
    fix(t.iterateOrder, 0);
    fix(t.isBias, 0);
    fix(t.BatchNum, 1);
    int32_t* all = reinterpret_cast<int32_t*>(&t);
    for (size_t i = 0; i < sizeof(t) / sizeof(int32_t); ++i) {
        if (all[i] < 0) all[i] = 0;
    }
    return t;
}

}  // namespace canopy::kernel::matmul

namespace AscendC {

// A constant tiling for a MatmulConfig that fixes singleCoreM / N / K and basicM / N / K (the shape
// itself is given later by SetOrgShape): Canopy's rule of the host tiling, at compile time (up to 4
// K blocks per load, double-buffered, within half of `l1Size`).
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                              int32_t l1Size = int32_t(TOTAL_L1_SIZE)) {
    MatmulApiStaticTiling tiling;
    tiling.cfg = mmCFG;
    if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return tiling;
    using A = typename A_TYPE::T;
    using B = typename B_TYPE::T;
    const int64_t aBlock = canopy::kernel::matmul::bytes_of<A>(int64_t(mmCFG.basicM) * mmCFG.basicK);
    const int64_t bBlock = canopy::kernel::matmul::bytes_of<B>(int64_t(mmCFG.basicN) * mmCFG.basicK);
    tiling.baseM = int32_t(mmCFG.basicM);
    tiling.baseN = int32_t(mmCFG.basicN);
    tiling.baseK = int32_t(mmCFG.basicK);
    tiling.dbL0A = aBlock * 2 <= int64_t(TOTAL_L0A_SIZE) ? 2 : 1;
    tiling.dbL0B = bBlock * 2 <= int64_t(TOTAL_L0B_SIZE) ? 2 : 1;
    tiling.dbL0C = int64_t(mmCFG.basicM) * mmCFG.basicN * 4 * 2 <= int64_t(TOTAL_L0C_SIZE) ? 2 : 1;
    tiling.isBias = mmCFG.enableSetBias ? 1 : 0;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) return tiling;
    tiling.usedCoreNum = 1;
    tiling.M = int32_t(mmCFG.singleCoreM);
    tiling.N = int32_t(mmCFG.singleCoreN);
    tiling.Ka = int32_t(mmCFG.singleCoreK);
    tiling.Kb = int32_t(mmCFG.singleCoreK);
    tiling.singleCoreM = int32_t(mmCFG.singleCoreM);
    tiling.singleCoreN = int32_t(mmCFG.singleCoreN);
    tiling.singleCoreK = int32_t(mmCFG.singleCoreK);
    const int32_t kBlocks = int32_t((mmCFG.singleCoreK + mmCFG.basicK - 1) / mmCFG.basicK);
    int32_t step = kBlocks < 4 ? kBlocks : 4;
    const int64_t bias = mmCFG.enableSetBias ? int64_t(mmCFG.basicN) * 4 : 0;
    while (step > 1 && (aBlock + bBlock) * step * 2 + bias > l1Size / 2) --step;
    tiling.stepM = 1;
    tiling.stepN = 1;
    tiling.stepKa = step;
    tiling.stepKb = step;
    tiling.depthA1 = step * 2;
    tiling.depthB1 = step * 2;
    tiling.iterateOrder = 0;
    tiling.shareMode = 0;
    tiling.transLength = 0;
    tiling.BatchNum = 1;
    return tiling;
}

namespace Impl {
// Buffers per queue of the Matmul's internal queues.
constexpr int32_t QUEUE_DEPTH = 1;
namespace Detail {
// The Matmul's data-movement policies (which blocks go through L1 / L0 in which order). Canopy
// computes the product from the operands, so a policy changes no result: any is accepted.
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
// The triangle policies compute only the base blocks on and above (upper) or on and below (lower)
// the block diagonal of the core's C: (m block, n block) with m <= n, or m >= n.
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    static constexpr int canopy_triangle = 1;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    static constexpr int canopy_triangle = 2;
};
template <typename Policy, typename = void>
struct TriangleOf {
    static constexpr int value = 0;
};
template <typename Policy>
struct TriangleOf<Policy, std::void_t<decltype(Policy::canopy_triangle)>> {
    static constexpr int value = Policy::canopy_triangle;
};
}  // namespace Detail
}  // namespace Impl

// The L0C accumulator type of a Matmul input type.
template <typename T>
struct GetMmDstType {
    using Type = canopy::kernel::matmul::Accumulator<T>;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MM_POLICY = Impl::Detail::MatmulPolicy>
class MatmulImpl {
public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using SrcT = SrcAT;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = canopy::kernel::matmul::Accumulator<SrcAT>;

    static_assert(canopy::kernel::ascendc::cube_input<SrcAT>,
                  "Matmul's A is half, bfloat16_t, float, int8_t or int4b_t on the A2");
    static_assert(std::is_same_v<L0cT, canopy::kernel::matmul::Accumulator<SrcBT>>,
                  "Matmul's A and B accumulate into the same type");

    // The configuration: MM_CFG itself, or the cfg of a constant tiling (MatmulApiStaticTiling).
    static constexpr MatmulConfig kCfg = canopy::kernel::matmul::config_of(MM_CFG);
    // 0: every base block; 1: upper triangle (m block <= n block); 2: lower (m block >= n block).
    static constexpr int kTriangle =
        Impl::Detail::TriangleOf<MM_POLICY<MM_CFG, MatmulImpl, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>>::value;

    __aicore__ inline MatmulImpl() {}

    // Takes the tiling (copied) and checks it against the shapes and the cube's memories; reserves
    // the L1 it uses from `tpipe` (or the block's TPipe).
    __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr) {
        const char* api = "Matmul::Init";
        static_assert(MM_CB::DataCopyOutPtr == nullptr && MM_CB::CopyA1Ptr == nullptr && MM_CB::CopyB1Ptr == nullptr,
                      "Matmul callbacks (MatmulCallBackFunc with functions) are not modelled by Canopy");
        if (cubeTiling != nullptr) {
            tiling_ = *cubeTiling;
        } else if constexpr (canopy::kernel::matmul::is_static_tiling<decltype(MM_CFG)>) {
            // A constant tiling: its fields, the shape completed by SetOrgShape / SetTail.
            tiling_ = canopy::kernel::matmul::to_tiling(MM_CFG);
        } else {
            fail_misuse(api, "the tiling is a null pointer (and MM_CFG is no constant tiling)");
        }
        CheckTiling(api);
        orgM_ = tiling_.M;
        orgN_ = tiling_.N;
        orgKa_ = tiling_.Ka;
        orgKb_ = tiling_.Kb;
        orgKc_ = tiling_.N;
        singleM_ = tiling_.singleCoreM;
        singleN_ = tiling_.singleCoreN;
        singleK_ = tiling_.singleCoreK;
        hasBias_ = false;
        a_ = {};
        b_ = {};
        bias_ = nullptr;
        computed_ = false;
        iterated_ = 0;
        pipe_ = tpipe != nullptr ? tpipe : GetTPipePtr();
        if (pipe_ != nullptr && !reserved_) {
            pipe_->canopy_reserve(TPosition::A1, InputL1Bytes(), api);
            reserved_ = true;
        }
        initialised_ = true;
    }

    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0) [[unlikely]] {
            fail_misuse("Matmul::SetOrgShape", "shape ", orgM, " x ", orgN, " x ", orgKa, " / ", orgKb,
                        " must be positive");
        }
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        orgKc_ = orgKc > 0 ? orgKc : orgN;
        computed_ = false;
    }
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK) {
        SetTail(singleM, singleN, singleK);
    }
    // The core's M, N and K for the next computation (-1: keep).
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM == 0 || tailN == 0 || tailK == 0 || tailM < -1 || tailN < -1 || tailK < -1) [[unlikely]] {
            fail_misuse("Matmul::SetTail", "tail ", tailM, " x ", tailN, " x ", tailK,
                        " must be positive (or -1 to keep the tiling's)");
        }
        if (tailM > 0) singleM_ = tailM;
        if (tailN > 0) singleN_ = tailN;
        if (tailK > 0) singleK_ = tailK;
        computed_ = false;
    }

    __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
        a_gm_ = gm;
        a_ = {gm.landed_address(), true, false, isTransposeA || A_TYPE::isTrans};
        computed_ = false;
    }
    __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
        b_gm_ = gm;
        b_ = {gm.landed_address(), true, false, isTransposeB || B_TYPE::isTrans};
        computed_ = false;
    }
    __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) {
        a_local_ = leftMatrix;
        a_ = {leftMatrix.landed_address(), true, true, isTransposeA || A_TYPE::isTrans};
        computed_ = false;
    }
    __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) {
        b_local_ = rightMatrix;
        b_ = {rightMatrix.landed_address(), true, true, isTransposeB || B_TYPE::isTrans};
        computed_ = false;
    }
    __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
        ReserveBiasRow();
        bias_gm_ = biasGlobal;
        bias_ = biasGlobal.landed_address();
        bias_local_set_ = false;
        hasBias_ = true;
        computed_ = false;
    }
    __aicore__ inline void SetBias(const LocalTensor<BiasT>& inputBias) {
        ReserveBiasRow();
        bias_local_ = inputBias;
        bias_ = inputBias.landed_address();
        bias_local_set_ = true;
        hasBias_ = true;
        computed_ = false;
    }
    __aicore__ inline void DisableBias() {
        hasBias_ = false;
        computed_ = false;
    }
    __aicore__ inline void ClearBias() { DisableBias(); }

    template <class T>
    __aicore__ inline void SetSelfDefineData(T dataPtr) {
        selfDefineData_ = uint64_t(dataPtr);
    }
    __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr) { userDefInfo_ = tilingPtr; }

    // Fixpipe quantization of the result: one scale word for all of C, or one per column of C.
    __aicore__ inline void SetQuantScalar(const uint64_t quantScalar) {
        quantScalar_ = quantScalar;
        quantVector_ = nullptr;
        quantSet_ = true;
    }
    __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        quantVectorGm_ = quantTensor;
        quantVector_ = quantTensor.landed_address();
        quantVectorLocal_ = false;
        quantSet_ = true;
    }
    __aicore__ inline void SetQuantVector(const LocalTensor<uint64_t>& quantTensor) {
        quantVector_ = quantTensor.landed_address();
        quantVectorLocal_ = true;
        quantSet_ = true;
    }

    __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB) {
        batchA_ = batchA;
        batchB_ = batchB;
    }

    // The next base block of C: false once every block has been handed out.
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false) {
        (void)enPartialSum;
        if (!computed_) {
            Compute("Matmul::Iterate");
            iterated_ = 0;
        }
        const int64_t blocks = MIter() * NIter();
        while (kTriangle != 0 && iterated_ < blocks && !InTriangle(BlockM(iterated_), BlockN(iterated_))) ++iterated_;
        if (iterated_ >= blocks) {
            computed_ = false;
            iterated_ = 0;
            current_ = -1;
            return false;
        }
        current_ = iterated_++;
        return true;
    }

    // The next base block into `localCmatrix` in L0C (CO1): the accumulators in L0C's Nz layout
    // (column blocks of 16, baseM rows rounded up to 16 high), for the kernel's own Fixpipe.
    template <bool sync = true, typename T>
    __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix) {
        static_assert(std::is_same_v<T, L0cT>, "Iterate into L0C takes the Matmul's accumulator type");
        const char* api = "Matmul::Iterate";
        if (localCmatrix.memory() != Hardware::L0C) [[unlikely]] {
            fail_misuse(api, "the destination is a ", PositionName(localCmatrix.position()), " tensor (",
                        HardwareName(localCmatrix.memory()), "); this form writes CO1 (L0C)");
        }
        if (!Iterate<sync>(enPartialSum)) return false;
        int64_t row, column, rows, columns;
        CurrentBlock(api, row, column, rows, columns);
        const int64_t height = (int64_t(tiling_.baseM) + 15) / 16 * 16;
        const int64_t extent = (int64_t(tiling_.baseN) + 15) / 16 * height * 16;
        canopy::kernel::ascendc::require_elements(localCmatrix, extent, api, "the L0C block");
        canopy::kernel::ascendc::issue(canopy::kernel::Pipe::M, api,
                                       canopy::kernel::ascendc::writes(localCmatrix, uint64_t(extent) * sizeof(T)));
        const auto& c = canopy::kernel::matmul::scratch<Acc>().c;
        T* out = localCmatrix.landed_address();
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t j = 0; j < columns; ++j) out[(j / 16) * height * 16 + r * 16 + j % 16] = c(row + r, column + j);
        }
        return true;
    }

    // The whole singleCoreM x singleCoreN C into `gm` (ND rows of N, or NZ); enAtomic 1 adds to
    // what is there.
    template <bool sync = true>
    __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, bool waitIterateAll = false,
                                      bool fakeMsg = false) {
        (void)waitIterateAll;
        (void)fakeMsg;
        const char* api = "Matmul::IterateAll";
        CheckAtomic(enAtomic, api);
        if (kTriangle == 0 && TryDirectFloat(gm, enAtomic, enSequentialWrite, api)) return;
        Compute(api);
        if constexpr (kTriangle != 0) {
            for (int64_t mi = 0; mi < MIter(); ++mi) {
                for (int64_t ni = 0; ni < NIter(); ++ni) {
                    if (!InTriangle(mi, ni)) continue;
                    const int64_t row = mi * tiling_.baseM, column = ni * tiling_.baseN;
                    WriteGm(gm, row, column, std::min<int64_t>(tiling_.baseM, singleM_ - row),
                            std::min<int64_t>(tiling_.baseN, singleN_ - column), orgKc_, enAtomic, api, false);
                }
            }
        } else {
            WriteGm(gm, 0, 0, singleM_, singleN_, enSequentialWrite ? singleN_ : orgKc_, enAtomic, api,
                    enSequentialWrite);
        }
        computed_ = false;
    }
    template <bool sync = true>
    __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
        const char* api = "Matmul::IterateAll";
        CheckAtomic(enAtomic, api);
        Compute(api);
        WriteLocal(ubCmatrix, 0, 0, singleM_, singleN_, singleN_, enAtomic, api);
        computed_ = false;
    }
    __aicore__ inline void WaitIterateAll() {}
    __aicore__ inline void WaitGetTensorC() {}

    // The current base block (after Iterate) into `gm` at its place in C, or packed at `gm` with
    // enSequentialWrite (rows of baseN).
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false) {
        const char* api = "Matmul::GetTensorC";
        CheckAtomic(enAtomic, api);
        int64_t row, column, rows, columns;
        CurrentBlock(api, row, column, rows, columns);
        if (enSequentialWrite) {
            WriteGm(gm, row, column, rows, columns, tiling_.baseN, enAtomic, api, true);
        } else {
            WriteGm(gm, row, column, rows, columns, orgKc_, enAtomic, api, false);
        }
    }
    // The current base block into a local tensor (rows of baseN elements).
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false) {
        (void)enSequentialWrite;
        const char* api = "Matmul::GetTensorC";
        CheckAtomic(enAtomic, api);
        int64_t row, column, rows, columns;
        CurrentBlock(api, row, column, rows, columns);
        WriteLocal(co2Local, row, column, rows, columns, tiling_.baseN, enAtomic, api);
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                      uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
        GetTensorC<sync>(co2Local, enAtomic, enSequentialWrite);
    }

    template <bool isTurnOnDebug = true>
    __aicore__ inline MatrixOffset GetOffsetC() {
        int64_t row, column, rows, columns;
        CurrentBlock("Matmul::GetOffsetC", row, column, rows, columns);
        return MatrixOffset{int32_t(row * orgKc_ + column), int32_t(row), int32_t(column), int32_t(rows),
                            int32_t(columns)};
    }

    // batchA x (M x K) and batchB x (K x N) matrices, consecutive in GM (NORMAL layout) or
    // interleaved as the BSNGD layout of the tiling says; C gets max(batchA, batchB) products.
    // The cube-side form (enPartialSum first; only a real bool selects it) and the client form
    // (batch counts first), as CANN's MatmulImpl and MatmulClient spell them.
    template <class PartialSum, std::enable_if_t<std::is_same_v<PartialSum, bool>, int> = 0>
    __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, PartialSum enPartialSum, uint8_t enAtomic,
                                        bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                        const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        (void)enPartialSum;
        RunBatches(gm, enAtomic, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC);
    }
    __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                                        bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                        const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                        const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        (void)enPartialSum;
        batchA_ = int32_t(batchA);
        batchB_ = int32_t(batchB);
        RunBatches(gm, enAtomic, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC);
    }

    // batchLoop IterateBatch calls, each on the next batchA / batchB matrices, their results into the
    // SetWorkspace buffer in C's layout (GetBatchTensorC then hands them out).
    template <bool sync = true>
    __aicore__ inline void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                                         bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                         const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                         const bool enPartialSum = false, const uint8_t enAtomic = 0) {
        (void)enPartialSum;
        const char* api = "Matmul::IterateNBatch";
        if (workspace_ == nullptr) [[unlikely]] {
            fail_misuse(api, "SetWorkspace must give the buffer the batches' results go to");
        }
        const int64_t batches = std::max(batchA, batchB);
        GlobalTensor<DstT> out;
        auto* base = reinterpret_cast<__gm__ DstT*>(const_cast<void*>(workspace_));
        if (workspaceBytes_ > 0) {
            out.SetGlobalBuffer(base, uint64_t(workspaceBytes_) / sizeof(DstT));  // bounds-checked
        } else {
            out.SetGlobalBuffer(base);
        }
        batchA_ = int32_t(batchA);
        batchB_ = int32_t(batchB);
        for (uint32_t loop = 0; loop < batchLoop; ++loop) {
            RunBatches(out, enAtomic, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                       int64_t(loop) * batchA, int64_t(loop) * batchB, int64_t(loop) * batches, api);
        }
        nBatchResults_ = int64_t(batchLoop);
        nBatchTaken_ = 0;
    }
    // The next IterateNBatch result, in the SetWorkspace buffer.
    template <bool sync = true>
    __aicore__ inline GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB,
                                                         bool enSequentialWrite = false) {
        (void)enSequentialWrite;
        if (nBatchTaken_ >= nBatchResults_) [[unlikely]] {
            fail_misuse("Matmul::GetBatchTensorC", "no IterateNBatch result left (", nBatchResults_,
                        " computed, all taken)");
        }
        const int64_t batches = std::max(batchA, batchB);
        GlobalTensor<DstT> out;
        out.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(const_cast<void*>(workspace_)) +
                            nBatchTaken_ * batches * int64_t(singleM_) * singleN_);
        ++nBatchTaken_;
        return out;
    }
    template <bool sync = true>
    __aicore__ inline GlobalTensor<DstT> GetBatchC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false) {
        return GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite);
    }

    __aicore__ inline void End() {
        computed_ = false;
        iterated_ = 0;
        current_ = -1;
    }

    __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
        (void)transMode;
        hf32_ = enableHF32;
    }
    __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
    __aicore__ inline uint8_t GetSubBlockIdx() { return subBlockIdx_; }
    // The workspace the client/server form exchanges results through; Canopy's cores share memory.
    template <class T>
    __aicore__ inline void SetWorkspace(__gm__ const T* addr, int size) {
        workspace_ = reinterpret_cast<const void*>(addr);
        workspaceBytes_ = int64_t(size) * int64_t(sizeof(T));
    }
    template <class T>
    __aicore__ inline void SetWorkspace(GlobalTensor<T>& addr) {
        workspace_ = reinterpret_cast<const void*>(addr.landed_address());
        workspaceBytes_ = int64_t(addr.GetSize() * sizeof(T));
    }
    // The UB the A1 / 310 forms convert formats in; the A2 converts on its own paths.
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) { localWorkspace_ = tmpBuffer; }

    // Canopy: the tiling this object runs with.
    const TCubeTiling& canopy_tiling() const { return tiling_; }

private:
    using Acc = L0cT;
    using Dense = canopy::kernel::matmul::Dense<Acc>;

    template <typename... Parts>
    [[noreturn]] static void fail_misuse(const char* api, const Parts&... parts) {
        canopy::kernel::ascendc::fail_misuse(api, parts...);
    }

    // L1 the tiling's input blocks take: depthA1 blocks of A and depthB1 of B (those from GM).
    int64_t InputL1Bytes() const {
        using canopy::kernel::matmul::bytes_of;
        const bool aFromGm = A_TYPE::pos == TPosition::GM || A_TYPE::pos == TPosition::VECOUT ||
                             A_TYPE::pos == TPosition::VECIN || A_TYPE::pos == TPosition::VECCALC;
        const bool bFromGm = B_TYPE::pos == TPosition::GM || B_TYPE::pos == TPosition::VECOUT ||
                             B_TYPE::pos == TPosition::VECIN || B_TYPE::pos == TPosition::VECCALC;
        int64_t bytes = 0;
        if (aFromGm) bytes += int64_t(tiling_.depthA1) * bytes_of<SrcAT>(int64_t(tiling_.baseM) * tiling_.baseK);
        if (bFromGm) bytes += int64_t(tiling_.depthB1) * bytes_of<SrcBT>(int64_t(tiling_.baseN) * tiling_.baseK);
        return (bytes + 31) / 32 * 32;
    }

    // CANN's Matmul carves the bias row's L1 at Init whenever the tiling enables a bias, without a
    // bound check, and only a SetBias copies into it: samples whose blocks fill L1 exactly and never
    // set a bias run correctly on the NPU. So the row is reserved, and checked, at the first SetBias.
    void ReserveBiasRow() {
        if (bias_reserved_ || pipe_ == nullptr || !tiling_.isBias) return;
        const int64_t bytes = (int64_t(tiling_.baseN) * int64_t(sizeof(Acc)) + 31) / 32 * 32;
        pipe_->canopy_reserve(TPosition::A1, bytes,
                              "Matmul::SetBias (the bias row in L1, beside the tiling's A and B blocks)");
        bias_reserved_ = true;
    }

    void CheckTiling(const char* api) const {
        using canopy::kernel::matmul::bytes_of;
        const TCubeTiling& t = tiling_;
        if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.Kb <= 0) [[unlikely]] {
            fail_misuse(api, "tiling shape M ", t.M, " N ", t.N, " Ka ", t.Ka, " Kb ", t.Kb, " must be positive");
        }
        if (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0) [[unlikely]] {
            fail_misuse(api, "tiling singleCoreM ", t.singleCoreM, " singleCoreN ", t.singleCoreN, " singleCoreK ",
                        t.singleCoreK, " must be positive");
        }
        if (t.singleCoreM > t.M || t.singleCoreN > t.N || t.singleCoreK > std::max(t.Ka, t.Kb)) [[unlikely]] {
            fail_misuse(api, "tiling singleCore ", t.singleCoreM, " x ", t.singleCoreN, " x ", t.singleCoreK,
                        " exceeds the shape ", t.M, " x ", t.N, " x ", std::max(t.Ka, t.Kb));
        }
        if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.baseM % 16 != 0 || t.baseN % 16 != 0) [[unlikely]] {
            fail_misuse(api, "tiling base block ", t.baseM, " x ", t.baseN, " x ", t.baseK,
                        ": baseM and baseN must be positive multiples of 16, baseK positive");
        }
        constexpr int64_t c0 = canopy::kernel::matmul::c0_of<SrcAT>();
        if (t.baseK % c0 != 0) [[unlikely]] {
            fail_misuse(api, "tiling baseK ", t.baseK, " is not a multiple of ", c0,
                        " (one 32-byte fractal row of A's type)");
        }
        if (t.stepM <= 0 || t.stepN <= 0 || t.stepKa <= 0 || t.stepKb <= 0 || t.depthA1 <= 0 || t.depthB1 <= 0)
            [[unlikely]] {
            fail_misuse(api, "tiling stepM ", t.stepM, " stepN ", t.stepN, " stepKa ", t.stepKa, " stepKb ",
                        t.stepKb, " depthA1 ", t.depthA1, " depthB1 ", t.depthB1, " must be positive");
        }
        const int64_t dbA = t.dbL0A > 1 ? 2 : 1, dbB = t.dbL0B > 1 ? 2 : 1, dbC = t.dbL0C > 1 ? 2 : 1;
        const int64_t l0a = dbA * bytes_of<SrcAT>(int64_t(t.baseM) * t.baseK);
        const int64_t l0b = dbB * bytes_of<SrcBT>(int64_t(t.baseN) * t.baseK);
        const int64_t l0c = dbC * int64_t(t.baseM) * t.baseN * int64_t(sizeof(Acc));
        if (l0a > int64_t(L0A_BYTES)) [[unlikely]] {
            fail_misuse(api, "tiling baseM ", t.baseM, " x baseK ", t.baseK, " x dbL0A ", dbA, " needs ", l0a,
                        " bytes of L0A, which holds ", L0A_BYTES);
        }
        if (l0b > int64_t(L0B_BYTES)) [[unlikely]] {
            fail_misuse(api, "tiling baseN ", t.baseN, " x baseK ", t.baseK, " x dbL0B ", dbB, " needs ", l0b,
                        " bytes of L0B, which holds ", L0B_BYTES);
        }
        if (l0c > int64_t(L0C_BYTES)) [[unlikely]] {
            fail_misuse(api, "tiling baseM ", t.baseM, " x baseN ", t.baseN, " x dbL0C ", dbC, " needs ", l0c,
                        " bytes of L0C, which holds ", L0C_BYTES);
        }
        const int64_t l1 = InputL1Bytes();
        if (l1 > int64_t(L1_BYTES)) [[unlikely]] {
            fail_misuse(api, "tiling depthA1 ", t.depthA1, " and depthB1 ", t.depthB1, " blocks of ", t.baseM, " x ",
                        t.baseK, " and ", t.baseK, " x ", t.baseN, " need ", l1, " bytes of L1, which holds ",
                        L1_BYTES);
        }
    }

    void CheckAtomic(uint8_t enAtomic, const char* api) const {
        if (enAtomic > 1) [[unlikely]] fail_misuse(api, "enAtomic ", int(enAtomic), " is not 0 or 1 (add)");
    }

    void RequireReady(const char* api) const {
        if (!initialised_) [[unlikely]] fail_misuse(api, "the Matmul was not initialised (REGIST_MATMUL_OBJ / Init)");
        if (!a_.set) [[unlikely]] fail_misuse(api, "SetTensorA was not called before computing");
        if (!b_.set) [[unlikely]] fail_misuse(api, "SetTensorB was not called before computing");
        if (singleM_ > orgM_ || singleN_ > orgN_ || singleK_ > std::max(orgKa_, orgKb_)) [[unlikely]] {
            fail_misuse(api, "the core's ", singleM_, " x ", singleN_, " x ", singleK_,
                        " (tiling singleCore / SetTail) exceeds the original shape ", orgM_, " x ", orgN_, " x ",
                        std::max(orgKa_, orgKb_));
        }
    }

    int64_t MIter() const { return (singleM_ + tiling_.baseM - 1) / tiling_.baseM; }
    int64_t NIter() const { return (singleN_ + tiling_.baseN - 1) / tiling_.baseN; }
    bool OrderN() const {
        if constexpr (kCfg.iterateOrder != IterateOrder::UNDEF) {
            return kCfg.iterateOrder == IterateOrder::ORDER_N;
        }
        return tiling_.iterateOrder == 1;
    }

    int64_t BlockM(int64_t index) const { return OrderN() ? index / NIter() : index % MIter(); }
    int64_t BlockN(int64_t index) const { return OrderN() ? index % NIter() : index / MIter(); }
    static bool InTriangle(int64_t mi, int64_t ni) {
        if constexpr (kTriangle == 1) return mi <= ni;
        if constexpr (kTriangle == 2) return mi >= ni;
        return true;
    }

    void CurrentBlock(const char* api, int64_t& row, int64_t& column, int64_t& rows, int64_t& columns) const {
        if (!computed_ || current_ < 0) [[unlikely]] {
            fail_misuse(api, "no base block to hand out: call Iterate (and check it returned true) first");
        }
        const int64_t mIter = MIter(), nIter = NIter();
        int64_t mi, ni;
        if (OrderN()) {
            ni = current_ % nIter;
            mi = current_ / nIter;
        } else {
            mi = current_ % mIter;
            ni = current_ / mIter;
        }
        row = mi * tiling_.baseM;
        column = ni * tiling_.baseN;
        rows = std::min<int64_t>(tiling_.baseM, singleM_ - row);
        columns = std::min<int64_t>(tiling_.baseN, singleN_ - column);
    }

    // Strides of the operands as stored: A is M x Ka (Ka x M transposed), B is Kb x N (N x Kb).
    // A local operand (UB or L1) holds just the core's matrix, its rows 32-byte aligned.
    template <typename T>
    static int64_t LocalRow(int64_t elements) {
        constexpr int64_t c0 = canopy::kernel::matmul::c0_of<T>();
        return (elements + c0 - 1) / c0 * c0;
    }
    int64_t StrideA() const {
        if (a_.local) return a_.transposed ? LocalRow<SrcAT>(singleM_) : LocalRow<SrcAT>(singleK_);
        return a_.transposed ? orgM_ : orgKa_;
    }
    int64_t StrideB() const {
        if (b_.local) return b_.transposed ? LocalRow<SrcBT>(singleK_) : LocalRow<SrcBT>(singleN_);
        return b_.transposed ? orgKb_ : orgN_;
    }
    // Rows and columns of the stored A / B (NZ fractal heights are its rows rounded up to 16).
    int64_t RowsA() const { return a_.local ? (a_.transposed ? singleK_ : singleM_) : (a_.transposed ? orgKa_ : orgM_); }
    int64_t ColumnsA() const { return a_.local ? StrideA() : (a_.transposed ? orgM_ : orgKa_); }
    int64_t RowsB() const { return b_.local ? (b_.transposed ? singleN_ : singleK_) : (b_.transposed ? orgN_ : orgKb_); }
    int64_t ColumnsB() const { return b_.local ? StrideB() : (b_.transposed ? orgKb_ : orgN_); }

    // Elements of an operand read for `rows` x `columns` at `stride`, from its start.
    static int64_t Extent(CubeFormat format, bool transposed, int64_t rows, int64_t columns, int64_t stride,
                          int64_t orgRows, int64_t orgColumns, int64_t c0) {
        if (format == CubeFormat::NZ) {
            return (orgColumns + c0 - 1) / c0 * c0 * ((orgRows + 15) / 16 * 16);
        }
        return transposed ? (columns - 1) * stride + rows : (rows - 1) * stride + columns;
    }

    template <typename T, class TYPE>
    const T* OperandData(const canopy::kernel::matmul::Operand<T>& op, const GlobalTensor<T>& gm,
                         const LocalTensor<T>& local, int64_t extent, const char* api, const char* role) const {
        if (op.local) {
            canopy::kernel::ascendc::require_elements(local, extent, api, role);
            const bool l1 = local.memory() == Hardware::L1;
            canopy::kernel::ascendc::issue(l1 ? canopy::kernel::Pipe::MTE1 : canopy::kernel::Pipe::MTE3, api,
                                           canopy::kernel::ascendc::reads(local, uint64_t(canopy::kernel::matmul::bytes_of<T>(extent))));
            return local.landed_address();
        }
        return gm.CheckedSpan(0, uint64_t(extent), false, api);
    }

    // The product into scratch().c (singleM_ x singleN_, Acc), bias added.
    void Compute(const char* api) {
        RequireReady(api);
        const int64_t m = singleM_, n = singleN_, k = singleK_;
        auto& s = canopy::kernel::matmul::scratch<Acc>();
        const int64_t extentA =
            Extent(A_TYPE::format, a_.transposed, m, k, StrideA(), RowsA(), ColumnsA(),
                   canopy::kernel::matmul::c0_of<SrcAT>());
        const int64_t extentB =
            Extent(B_TYPE::format, b_.transposed, k, n, StrideB(), RowsB(), ColumnsB(),
                   canopy::kernel::matmul::c0_of<SrcBT>());
        const SrcAT* a = OperandData<SrcAT, A_TYPE>(a_, a_gm_, a_local_, extentA, api, "A");
        const SrcBT* b = OperandData<SrcBT, B_TYPE>(b_, b_gm_, b_local_, extentB, api, "B");
        // NZ operands: the stored matrix is (transposed ? columns : rows) high.
        canopy::kernel::matmul::densify<Acc>(s.a, a, A_TYPE::format, a_.transposed, m, k, StrideA(), RowsA());
        canopy::kernel::matmul::densify<Acc>(s.b, b, B_TYPE::format, b_.transposed, k, n, StrideB(), RowsB());
        s.c.resize(m, n);
        s.c.noalias() = s.a * s.b;
        AddBias(s.c, api);
        computed_ = true;
    }

    template <class Matrix>
    void AddBias(Matrix& c, const char* api) const {
        if (!hasBias_) return;
        const int64_t n = c.cols();
        const BiasT* bias;
        if (bias_local_set_) {
            canopy::kernel::ascendc::require_elements(bias_local_, n, api, "bias");
            canopy::kernel::ascendc::issue(canopy::kernel::Pipe::MTE3, api,
                                           canopy::kernel::ascendc::reads(bias_local_, uint64_t(n) * sizeof(BiasT)));
            bias = bias_local_.landed_address();
        } else {
            bias = bias_gm_.CheckedSpan(0, uint64_t(n), false, api);
        }
        for (int64_t j = 0; j < n; ++j) {
            c.col(j).array() += static_cast<typename Matrix::Scalar>(canopy::kernel::matmul::as_float(bias[j]));
        }
    }

    // The fixpipe's conversion of one accumulator of column `column`.
    DstT Convert(Acc value, int64_t column) const {
        using namespace canopy::kernel::ascendc;
        constexpr bool same = std::is_same_v<DstT, Acc>;
        constexpr bool quantizes = (std::is_same_v<Acc, int32_t> && !std::is_same_v<DstT, int32_t>) ||
                                   (std::is_same_v<Acc, float> &&
                                    (std::is_same_v<DstT, int8_t> || std::is_same_v<DstT, uint8_t>));
        if constexpr (same) {
            return kCfg.enableRelu ? std::max(value, Acc(0)) : value;
        } else if constexpr (quantizes) {
            FixpipeMove f;
            const bool vector = quantVector_ != nullptr;
            if constexpr (std::is_same_v<Acc, int32_t>) {
                f.quant = std::is_same_v<DstT, half> ? (vector ? VDEQF16 : DEQF16) : (vector ? VREQ8 : REQ8);
            } else {
                f.quant = vector ? VQF322B8_PRE : QF322B8_PRE;
            }
            f.relu = kCfg.enableRelu;
            const uint64_t word = vector ? quantVector_[column] : quantScalar_;
            return fixpipe_convert<DstT, Acc>(value, f, word);
        } else {
            const float x = float(value);
            return DstT(kCfg.enableRelu ? std::max(x, 0.0f) : x);
        }
    }

    void RequireQuant(const char* api, int64_t column_end) const {
        constexpr bool quantizes = (std::is_same_v<Acc, int32_t> && !std::is_same_v<DstT, int32_t>) ||
                                   (std::is_same_v<Acc, float> &&
                                    (std::is_same_v<DstT, int8_t> || std::is_same_v<DstT, uint8_t>));
        if constexpr (quantizes) {
            if (!quantSet_) [[unlikely]] {
                fail_misuse(api, "C's type needs the result quantized: call SetQuantScalar or SetQuantVector first");
            }
            if (quantVector_ != nullptr && !quantVectorLocal_) {
                quantVectorGm_.CheckedSpan(0, uint64_t(column_end), false, api);
            }
        }
    }

    // enAtomic: cores accumulating into the same C run on parallel threads, so each element is
    // added with a compare-and-swap, as the NPU's atomic add to GM does.
    static void AtomicAdd(DstT* element, DstT value) {
        canopy::kernel::ascendc::combine_into(canopy::kernel::ascendc::AtomicOperation::add, element, &value, 1);
    }

    // Rows [row, row + rows) x columns [column, column + columns) of the product into `gm`: at their
    // place in C (ND rows `stride` apart, or NZ), or packed from gm's start (sequential).
    void WriteGm(const GlobalTensor<DstT>& gm, int64_t row, int64_t column, int64_t rows, int64_t columns,
                 int64_t stride, uint8_t enAtomic, const char* api, bool sequential) const {
        RequireQuant(api, column + columns);
        const Dense& c = canopy::kernel::matmul::scratch<Acc>().c;
        const int64_t r0 = sequential ? 0 : row, c0 = sequential ? 0 : column;
        if (C_TYPE::format == CubeFormat::NZ) {
            // Fractal columns: 16 wide for 4-byte results (8 with channel split), else 32 bytes.
            constexpr int64_t width =
                sizeof(DstT) == 4 ? (kCfg.isEnableChannelSplit ? 8 : 16) : 32 / int64_t(sizeof(DstT));
            const int64_t height = sequential ? (rows + 15) / 16 * 16 : (orgM_ + 15) / 16 * 16;
            auto index = [&](int64_t r, int64_t col) { return (col / width) * height * width + r * width + col % width; };
            const int64_t last = index(r0 + rows - 1, c0 + columns - 1);
            const int64_t first = index(r0, c0);
            DstT* out = gm.CheckedSpan(0, uint64_t(std::max(last, first) + 1), true, api);
            for (int64_t r = 0; r < rows; ++r) {
                for (int64_t j = 0; j < columns; ++j) {
                    const DstT v = Convert(c(row + r, column + j), column + j);
                    DstT& o = out[index(r0 + r, c0 + j)];
                    if (enAtomic) {
                        AtomicAdd(&o, v);
                    } else {
                        o = v;
                    }
                }
            }
            return;
        }
        // ND_ALIGN: rows padded to 32 bytes, the padding of the last columns written as zeros.
        constexpr int64_t align = 32 / int64_t(sizeof(DstT));
        int64_t padded = columns;
        if (C_TYPE::format == CubeFormat::ND_ALIGN) {
            if (!sequential) stride = (stride + align - 1) / align * align;
            if (column + columns == singleN_) padded = (columns + align - 1) / align * align;
        }
        const int64_t offset = r0 * stride + c0;
        DstT* out = gm.CheckedSpan(uint64_t(offset), uint64_t((rows - 1) * stride + padded), true, api);
        for (int64_t r = 0; r < rows && padded > columns; ++r) {
            for (int64_t j = columns; j < padded; ++j) out[r * stride + j] = DstT(0);
        }
        for (int64_t r = 0; r < rows; ++r) {
            DstT* line = out + r * stride;
            for (int64_t j = 0; j < columns; ++j) {
                const DstT v = Convert(c(row + r, column + j), column + j);
                if (enAtomic) {
                    AtomicAdd(&line[j], v);
                } else {
                    line[j] = v;
                }
            }
        }
    }

    // The block into a local tensor, ND rows of `stride` elements (NZ of 16-row fractal columns
    // when C's format is NZ).
    void WriteLocal(const LocalTensor<DstT>& dst, int64_t row, int64_t column, int64_t rows, int64_t columns,
                    int64_t stride, uint8_t enAtomic, const char* api) const {
        RequireQuant(api, column + columns);
        const Dense& c = canopy::kernel::matmul::scratch<Acc>().c;
        constexpr int64_t width = sizeof(DstT) == 4 ? 16 : 32 / int64_t(sizeof(DstT));
        const bool nz = C_TYPE::format == CubeFormat::NZ;
        const int64_t height = (rows + 15) / 16 * 16;
        const int64_t extent = nz ? ((columns + width - 1) / width) * height * width : (rows - 1) * stride + columns;
        canopy::kernel::ascendc::require_elements(dst, extent, api, "C (the block written)");
        canopy::kernel::ascendc::issue(canopy::kernel::Pipe::MTE2, api,
                                       canopy::kernel::ascendc::writes(dst, uint64_t(extent) * sizeof(DstT)));
        DstT* out = dst.landed_address();
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t j = 0; j < columns; ++j) {
                const DstT v = Convert(c(row + r, column + j), column + j);
                DstT& o = out[nz ? (j / width) * height * width + r * width + j % width : r * stride + j];
                o = enAtomic ? DstT(float(o) + float(v)) : v;
            }
        }
    }

    // float x float -> float ND from GM to GM: the GEMM writes C in place.
    bool TryDirectFloat(const GlobalTensor<DstT>& gm, uint8_t enAtomic, bool sequential, const char* api) {
        if constexpr (std::is_same_v<SrcAT, float> && std::is_same_v<SrcBT, float> && std::is_same_v<DstT, float> &&
                      A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                      C_TYPE::format == CubeFormat::ND && !kCfg.enableRelu) {
            if (enAtomic != 0 || a_.local || b_.local) return false;
            RequireReady(api);
            const int64_t m = singleM_, n = singleN_, k = singleK_;
            const int64_t strideC = sequential ? n : orgKc_;
            const float* a = a_gm_.CheckedSpan(0, uint64_t(Extent(CubeFormat::ND, a_.transposed, m, k, StrideA(), 0, 0, 8)),
                                               false, api);
            const float* b = b_gm_.CheckedSpan(0, uint64_t(Extent(CubeFormat::ND, b_.transposed, k, n, StrideB(), 0, 0, 8)),
                                               false, api);
            float* c = gm.CheckedSpan(0, uint64_t((m - 1) * strideC + n), true, api);
            using Row = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
            using Col = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
            using Stride = Eigen::OuterStride<>;
            Eigen::Map<Row, 0, Stride> out(c, m, n, Stride(strideC));
            auto run = [&](const auto& lhs, const auto& rhs) { out.noalias() = lhs * rhs; };
            auto withB = [&](const auto& lhs) {
                if (b_.transposed) {
                    run(lhs, Eigen::Map<const Col, 0, Stride>(b, k, n, Stride(StrideB())));
                } else {
                    run(lhs, Eigen::Map<const Row, 0, Stride>(b, k, n, Stride(StrideB())));
                }
            };
            if (a_.transposed) {
                withB(Eigen::Map<const Col, 0, Stride>(a, m, k, Stride(StrideA())));
            } else {
                withB(Eigen::Map<const Row, 0, Stride>(a, m, k, Stride(StrideA())));
            }
            AddBias(out, api);
            computed_ = false;
            return true;
        }
        (void)gm, (void)enAtomic, (void)sequential, (void)api;
        return false;
    }

    // Element offset of batch `i` in a BSNGD tensor of layout b x s x n x g x d: batches run over
    // (b, n, g), the s rows of one matrix are n*g*d apart.
    static int64_t BsngdOffset(int64_t i, int32_t s, int32_t n, int32_t g, int32_t d) {
        const int64_t ng = std::max<int64_t>(1, int64_t(n) * g);
        return (i / ng) * int64_t(s) * ng * d + (i % ng) * d;
    }

    void RunBatches(const GlobalTensor<DstT>& gm, uint8_t enAtomic, bool enSequentialWrite, uint32_t strideA,
                    uint32_t strideB, uint32_t strideC, int64_t firstA = 0, int64_t firstB = 0, int64_t firstC = 0,
                    const char* api = "Matmul::IterateBatch") {
        CheckAtomic(enAtomic, api);
        RequireReady(api);
        const int32_t batchA = batchA_ > 0 ? batchA_ : std::max(1, tiling_.BatchNum);
        const int32_t batchB = batchB_ > 0 ? batchB_ : batchA;
        const int32_t batches = std::max(batchA, batchB);
        if (batches % batchA != 0 || batches % batchB != 0) [[unlikely]] {
            fail_misuse(api, "batchA ", batchA, " and batchB ", batchB, " must divide the larger one");
        }
        const int64_t m = singleM_, n = singleN_;
        // Matrix distances: NORMAL layout, consecutive matrices; BSNGD, the rows of one matrix are
        // N*G*D apart and its batches D apart.
        const bool bsngdA = A_TYPE::layout == LayoutMode::BSNGD;
        const bool bsngdB = B_TYPE::layout == LayoutMode::BSNGD;
        const bool bsngdC = C_TYPE::layout == LayoutMode::BSNGD;
        const int64_t aMatrix = strideA != 0 ? strideA : (bsngdA ? int64_t(tiling_.ALayoutInfoD) : int64_t(orgM_) * orgKa_);
        const int64_t bMatrix = strideB != 0 ? strideB : (bsngdB ? int64_t(tiling_.BLayoutInfoD) : int64_t(orgKb_) * orgN_);
        const int64_t cMatrix = strideC != 0 ? strideC : (bsngdC ? int64_t(tiling_.CLayoutInfoS2) : int64_t(orgM_) * orgN_);
        const auto saveA = a_;
        const auto saveB = b_;
        const int64_t saveKa = orgKa_, saveKb = orgKb_, saveM = orgM_, saveN = orgN_, saveKc = orgKc_;
        if (bsngdA) {
            const int64_t row = int64_t(tiling_.ALayoutInfoN) * tiling_.ALayoutInfoG * tiling_.ALayoutInfoD;
            if (a_.transposed) orgM_ = int32_t(row); else orgKa_ = int32_t(row);
        }
        if (bsngdB) {
            const int64_t row = int64_t(tiling_.BLayoutInfoN) * tiling_.BLayoutInfoG * tiling_.BLayoutInfoD;
            if (b_.transposed) orgKb_ = int32_t(row); else orgN_ = int32_t(row);
        }
        if (bsngdC) orgKc_ = int32_t(int64_t(tiling_.CLayoutInfoN) * tiling_.CLayoutInfoG * tiling_.CLayoutInfoS2);
        const GlobalTensor<SrcAT> baseA = a_gm_;
        const GlobalTensor<SrcBT> baseB = b_gm_;
        const LocalTensor<SrcAT> baseLocalA = a_local_;
        const LocalTensor<SrcBT> baseLocalB = b_local_;
        const GlobalTensor<BiasT> baseBias = bias_gm_;
        auto offsetA = [&](int64_t i) {
            return bsngdA && strideA == 0 ? BsngdOffset(i, tiling_.ALayoutInfoS, tiling_.ALayoutInfoN, tiling_.ALayoutInfoG,
                                                         tiling_.ALayoutInfoD)
                                          : i * aMatrix;
        };
        auto offsetB = [&](int64_t i) {
            return bsngdB && strideB == 0 ? BsngdOffset(i, tiling_.BLayoutInfoS, tiling_.BLayoutInfoN, tiling_.BLayoutInfoG,
                                                         tiling_.BLayoutInfoD)
                                          : i * bMatrix;
        };
        auto offsetC = [&](int64_t i) {
            return bsngdC && strideC == 0 ? BsngdOffset(i, tiling_.CLayoutInfoS1, tiling_.CLayoutInfoN, tiling_.CLayoutInfoG,
                                                         tiling_.CLayoutInfoS2)
                                          : i * cMatrix;
        };
        for (int32_t i = 0; i < batches; ++i) {
            const int64_t ia = firstA + i / (batches / batchA), ib = firstB + i / (batches / batchB);
            if (a_.local) {
                a_local_ = baseLocalA[uint32_t(offsetA(ia))];
                a_.data = a_local_.landed_address();
            } else {
                a_gm_ = baseA[uint64_t(offsetA(ia))];
                a_.data = a_gm_.landed_address();
            }
            if (b_.local) {
                b_local_ = baseLocalB[uint32_t(offsetB(ib))];
                b_.data = b_local_.landed_address();
            } else {
                b_gm_ = baseB[uint64_t(offsetB(ib))];
                b_.data = b_gm_.landed_address();
            }
            if (hasBias_ && !bias_local_set_ && kCfg.isBiasBatch) bias_gm_ = baseBias[uint64_t(firstC + i) * n];
            Compute(api);
            const int64_t cOffset = enSequentialWrite ? (firstC + i) * m * n : offsetC(firstC + i);
            WriteGm(gm[uint64_t(cOffset)], 0, 0, m, n, enSequentialWrite ? n : orgKc_, enAtomic, api, enSequentialWrite);
        }
        a_gm_ = baseA;
        b_gm_ = baseB;
        a_local_ = baseLocalA;
        b_local_ = baseLocalB;
        bias_gm_ = baseBias;
        a_ = saveA;
        b_ = saveB;
        orgKa_ = int32_t(saveKa);
        orgKb_ = int32_t(saveKb);
        orgM_ = int32_t(saveM);
        orgN_ = int32_t(saveN);
        orgKc_ = int32_t(saveKc);
        computed_ = false;
    }

    TCubeTiling tiling_{};
    bool initialised_ = false;
    bool reserved_ = false;
    bool bias_reserved_ = false;
    TPipe* pipe_ = nullptr;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
    canopy::kernel::matmul::Operand<SrcAT> a_;
    canopy::kernel::matmul::Operand<SrcBT> b_;
    GlobalTensor<SrcAT> a_gm_;
    GlobalTensor<SrcBT> b_gm_;
    LocalTensor<SrcAT> a_local_;
    LocalTensor<SrcBT> b_local_;
    GlobalTensor<BiasT> bias_gm_;
    LocalTensor<BiasT> bias_local_;
    const BiasT* bias_ = nullptr;
    bool bias_local_set_ = false;
    bool hasBias_ = false;
    uint64_t quantScalar_ = 0;
    const uint64_t* quantVector_ = nullptr;
    GlobalTensor<uint64_t> quantVectorGm_;
    bool quantVectorLocal_ = false;
    bool quantSet_ = false;
    int32_t batchA_ = 0, batchB_ = 0;
    bool computed_ = false;
    int64_t iterated_ = 0;
    int64_t current_ = -1;
    bool hf32_ = false;
    uint8_t subBlockIdx_ = 0;
    uint64_t selfDefineData_ = 0;
    uint64_t userDefInfo_ = 0;
    const void* workspace_ = nullptr;
    int64_t workspaceBytes_ = 0;
    LocalTensor<uint8_t> localWorkspace_;
    int64_t nBatchResults_ = 0, nBatchTaken_ = 0;
};

}  // namespace AscendC
