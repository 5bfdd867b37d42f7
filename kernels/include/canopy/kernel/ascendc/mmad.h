#pragma once
// Mmad: C (L0C, Nz) = init + A (L0A) x B (L0B, Zn) on the M pipe, for an m x k by k x n
// product. A is Zz on the A2 (the fractals of a row of fractals one after another) and Nz on the 950
// (the fractals of a column of fractals one after another: CANN's Mmad documentation, "Ascend
// 950PR/Ascend 950DT: A, L0A Buffer, M x K, Nz"); either way a fractal is 16 rows of c0 elements. The fractals are unpacked into dense matrices and multiplied with Eigen's GEMM in float
// (int32 for int8 and int4 inputs), the cube unit's accumulation type. The initial C is zero
// (cmatrixInitVal), the bias row in the bias table broadcast over the rows (cmatrixSource, or a
// bias tensor in C2), or what L0C holds. Every overload goes through canopy::kernel::ascendc::mmad.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

// A float rounded to HF32, the A2 cube's reduced float: float's sign and exponent with 11 mantissa
// bits (CANN's --allow_hf32 documentation), to the nearest, ties to even or away from zero (the
// Matmul SetHF32 transMode 0 / 1). An overflow rounds up to infinity; inf and NaN stay.
inline float round_to_hf32(float value, bool ties_away) {
    constexpr uint32_t kDropped = 23 - 11;
    constexpr uint32_t kHalf = uint32_t(1) << (kDropped - 1);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    if ((bits & 0x7F800000u) == 0x7F800000u) return value;
    const uint32_t kept_lsb = (bits >> kDropped) & 1u;
    bits += ties_away ? kHalf : kHalf - 1 + kept_lsb;
    bits &= ~((uint32_t(1) << kDropped) - 1);
    std::memcpy(&value, &bits, sizeof(bits));
    return value;
}

// The accumulator type of the cube unit for inputs of type T.
template <typename T>
using accumulator_t = std::conditional_t<std::is_same_v<T, int8_t> || packs_nibbles<T>, int32_t, float>;

template <typename T>
constexpr bool cube_input = std::is_same_v<T, half> || std::is_same_v<T, Eigen::bfloat16> ||
                            std::is_same_v<T, float> || std::is_same_v<T, int8_t> || packs_nibbles<T>;

// Per-thread dense operands, reused across calls (no allocation on the hot path).
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

// Whether Mmad reads A from L0A as Nz (the 950) rather than Zz (the A2).
inline constexpr bool a_nz_layout = __NPU_ARCH__ == 3510;

// Where the initial C of an Mmad comes from.
enum class MmadInit { zero, l0c, bias_table };

template <typename Accumulator, typename Input>
inline void mmad(const AscendC::LocalTensor<Accumulator>& dst, const AscendC::LocalTensor<Input>& fm,
                 const AscendC::LocalTensor<Input>& filter, const AscendC::MmadParams& p, MmadInit init,
                 const AscendC::LocalTensor<Accumulator>* initial) {
    const char* api = "Mmad";
    require_memory(fm, AscendC::Hardware::L0A, api, "fm (A)");
    require_memory(filter, AscendC::Hardware::L0B, api, "filter (B)");
    require_memory(dst, AscendC::Hardware::L0C, api, "dst (C)");
    require_alignment(fm, kFractalBytes, api, "fm (A)");
    require_alignment(filter, kFractalBytes, api, "filter (B)");
    require_alignment(dst, 64, api, "dst (C)");
    if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) [[unlikely]] {
        fail_misuse(api, "unitFlag ", int(p.unitFlag), " is not 0 (off), 2 or 3");
    }
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    if (a_nz_layout && p.kDirectionAlign) [[unlikely]] {
        fail_misuse(api, "kDirectionAlign is true; the Ascend 950 takes only false (K aligned to 8 for float)");
    }
    if (packs_nibbles<Input> && p.k % 2 != 0) [[unlikely]] {
        fail_misuse(api, "k ", p.k, " must be even for int4b_t inputs (the cube reads them by bytes)");
    }
    constexpr int64_t c0 = c0_of<Input>;
#if __NPU_ARCH__ == 3510
    const bool gemv = p.m == 1 && !p.disableGemv;  // A is one contiguous row of k elements
#else
    const bool gemv = p.m == 1;  // A is one contiguous row of k elements
#endif
    const int64_t m_fractals = ceil_div(p.m, 16);
    const int64_t n_fractals = ceil_div(p.n, 16);
    const int64_t k_fractals = ceil_div(p.k, c0);
    // kDirectionAlign: a float A's rows in L0A are rounded up to 16 k-values (two fractals).
    const int64_t a_k_fractals =
        std::is_same_v<Input, float> && p.kDirectionAlign ? ceil_div(p.k, 16) * 2 : k_fractals;
    // The element offset of A's fractal (mb, kb) in L0A: Zz on the A2, Nz on the 950.
    const auto a_fractal = [&](int64_t mb, int64_t kb) {
        return (a_nz_layout ? kb * m_fractals + mb : mb * a_k_fractals + kb) * 16 * c0;
    };
    // The cube reads and writes whole fractals wherever m, n and k put them, past the end of tensors
    // sized for the unaligned matrix if need be (the samples size them so): the operands must stay
    // inside their buffers.
    require_in_buffer(fm, gemv ? int64_t(p.k) : m_fractals * a_k_fractals * 16 * c0, api,
                      "fm (A) for the given m and k");
    require_in_buffer(filter, k_fractals * n_fractals * 16 * c0, api, "filter (B) for the given k and n");
    require_in_buffer(dst, m_fractals * n_fractals * 256, api, "dst (C) for the given m and n");

    const uint64_t c_bytes = uint64_t(m_fractals * n_fractals * 256) * sizeof(Accumulator);
    const uint64_t a_bytes = bytes_of<Input>(uint64_t(gemv ? int64_t(p.k) : m_fractals * a_k_fractals * 16 * c0));
    const uint64_t b_bytes = bytes_of<Input>(uint64_t(k_fractals * n_fractals * 16 * c0));
    const uint64_t initial_bytes = init == MmadInit::bias_table ? uint64_t(p.n) * sizeof(Accumulator) : c_bytes;
    issue(Pipe::M, api, reads(fm, a_bytes), reads(filter, b_bytes), under_unit_flag(writes(dst, c_bytes), p.unitFlag != 0),
          initial == nullptr ? Operand{} : reads(*initial, initial_bytes));
    const Accumulator* bias = initial == nullptr ? nullptr : initial->landed_address();
    const Accumulator* init_c = bias;
    MmadScratch<Accumulator>& scratch = mmad_scratch<Accumulator>();
    ensure_size(scratch.a, m_fractals * 16, k_fractals * c0);
    ensure_size(scratch.b, k_fractals * c0, n_fractals * 16);
    ensure_size(scratch.product, p.m, p.n);
    if constexpr (packs_nibbles<Input>) {
        // int4 fractals are nibbles: unpacked element by element, the even element the low nibble.
        const void* a = fm.landed_address();
        for (int64_t row = 0; row < (gemv ? 1 : m_fractals * 16); ++row) {
            for (int64_t column = 0; column < k_fractals * c0; ++column) {
                const int64_t index =
                    gemv ? column : a_fractal(row / 16, column / c0) + (row % 16) * c0 + column % c0;
                scratch.a(row, column) = gemv && column >= p.k ? 0 : nibble_at(a, index);
            }
        }
        const void* b = filter.landed_address();
        for (int64_t k = 0; k < k_fractals * c0; ++k) {
            for (int64_t n = 0; n < n_fractals * 16; ++n) {
                scratch.b(k, n) = nibble_at(b, ((k / c0) * n_fractals + n / 16) * 16 * c0 + (n % 16) * c0 + k % c0);
            }
        }
    } else {
        using Fractal = Eigen::Map<const Eigen::Matrix<Input, 16, c0, Eigen::RowMajor>>;  // 16 rows x c0
        const Input* a = fm.landed_address();
        if (gemv) {
            for (int64_t k = 0; k < p.k; ++k) scratch.a(0, k) = static_cast<Accumulator>(a[k]);
        } else {
            for (int64_t mb = 0; mb < m_fractals; ++mb) {
                for (int64_t kb = 0; kb < k_fractals; ++kb) {
                    scratch.a.template block<16, c0>(mb * 16, kb * c0) =
                        Fractal(a + a_fractal(mb, kb)).template cast<Accumulator>();
                }
            }
        }
        const Input* b = filter.landed_address();
        for (int64_t kb = 0; kb < k_fractals; ++kb) {
            for (int64_t nb = 0; nb < n_fractals; ++nb) {
                scratch.b.template block<c0, 16>(kb * c0, nb * 16) =
                    Fractal(b + (kb * n_fractals + nb) * 16 * c0).transpose().template cast<Accumulator>();
            }
        }
    }
    if constexpr (std::is_same_v<Input, float>) {
        const CubeRegisters& registers = cube_registers();
        if (registers.hf32) {
            const auto round = [&](float x) { return round_to_hf32(x, registers.hf32_ties_away); };
            scratch.a.topLeftCorner(p.m, p.k) = scratch.a.topLeftCorner(p.m, p.k).unaryExpr(round);
            scratch.b.topLeftCorner(p.k, p.n) = scratch.b.topLeftCorner(p.k, p.n).unaryExpr(round);
        }
    }
    scratch.product.noalias() = scratch.a.topLeftCorner(p.m, p.k) * scratch.b.topLeftCorner(p.k, p.n);

    // Into the Nz accumulator: column block nb holds m_fractals * 16 rows of 16 elements.
    using CBlock = Eigen::Map<Eigen::Matrix<Accumulator, Eigen::Dynamic, 16, Eigen::RowMajor>>;
    using ConstCBlock = Eigen::Map<const Eigen::Matrix<Accumulator, Eigen::Dynamic, 16, Eigen::RowMajor>>;
    for (int64_t nb = 0; nb < n_fractals; ++nb) {
        const int64_t columns = std::min<int64_t>(16, p.n - nb * 16);
        CBlock block(dst.landed_address() + nb * m_fractals * 256, p.m, 16);
        auto product = scratch.product.middleCols(nb * 16, columns);
        switch (init) {
            case MmadInit::zero: block.leftCols(columns) = product; break;
            case MmadInit::l0c:
                block.leftCols(columns) =
                    ConstCBlock(init_c + nb * m_fractals * 256, p.m, 16).leftCols(columns) + product;
                break;
            case MmadInit::bias_table:
                for (int64_t row = 0; row < p.m; ++row) {
                    for (int64_t column = 0; column < columns; ++column) {
                        block(row, column) = bias[nb * 16 + column] + product(row, column);
                    }
                }
                break;
        }
    }
}

// MmadWithSparse: C = init + A x B with A (m x k, int8) dense in L0A and B given as its 4:2
// densified rows (k / 2 x n, int8, Zn) in L0B. Each column n of B packs every group of 4 k-values
// into 2 values and 2 indices (in the index buffer LoadDataWithSparse filled, four 2-bit indices a
// byte, the first in the low bits): the first value pairs with A's column 4g + index0, the second
// with 4g + 1 + index1.
inline void mmad_sparse(const AscendC::LocalTensor<int32_t>& dst, const AscendC::LocalTensor<int8_t>& fm,
                        const AscendC::LocalTensor<int8_t>& filter, const AscendC::MmadParams& p) {
    const char* api = "MmadWithSparse";
    require_memory(fm, AscendC::Hardware::L0A, api, "fm (A)");
    require_memory(filter, AscendC::Hardware::L0B, api, "filter (B)");
    require_memory(dst, AscendC::Hardware::L0C, api, "dst (C)");
    require_alignment(fm, kFractalBytes, api, "fm (A)");
    require_alignment(filter, kFractalBytes, api, "filter (B)");
    require_alignment(dst, 1024, api, "dst (C)");
    if (p.kDirectionAlign) [[unlikely]] fail_misuse(api, "kDirectionAlign is not supported with sparse matrices");
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    if (p.k % 64 != 0) [[unlikely]] {
        fail_misuse(api, "k ", p.k, " is not a multiple of 64 (one fractal of densified B covers 64 k-values)");
    }
    const int64_t m_fractals = ceil_div(p.m, 16), n_fractals = ceil_div(p.n, 16);
    const int64_t a_k_fractals = p.k / 32, b_k_fractals = p.k / 64;
    require_elements(fm, m_fractals * a_k_fractals * 512, api, "fm (A) for the given m and k");
    require_elements(filter, b_k_fractals * n_fractals * 512, api, "filter (B) for the given k and n");
    require_elements(dst, m_fractals * n_fractals * 256, api, "dst (C) for the given m and n");
    const bool zero = p.cmatrixInitVal && !p.isBias;
    if (!zero && p.cmatrixSource) [[unlikely]] {
        fail_misuse(api, "an initial C from the bias table (cmatrixSource) is not modelled by Canopy here");
    }
    const uint64_t c_bytes = uint64_t(m_fractals * n_fractals * 256) * sizeof(int32_t);
    issue(Pipe::M, api, reads(fm, uint64_t(m_fractals * a_k_fractals) * kFractalBytes),
          reads(filter, uint64_t(b_k_fractals * n_fractals) * kFractalBytes), writes(dst, c_bytes),
          zero ? Operand{} : reads(dst, c_bytes));
    const int8_t* a = fm.landed_address();
    const int8_t* b = filter.landed_address();
    const uint64_t filter_offset =
        uint64_t(reinterpret_cast<const std::byte*>(b) - local_memory(AscendC::Hardware::L0B).base);
    const uint8_t* indices = cube_registers().sparse_index + filter_offset / 4;
    auto a_at = [&](int64_t m, int64_t k) {
        return int32_t(a[((m / 16) * a_k_fractals + k / 32) * 512 + (m % 16) * 32 + k % 32]);
    };
    int32_t* c = dst.landed_address();
    for (int64_t n = 0; n < p.n; ++n) {
        for (int64_t m = 0; m < p.m; ++m) {
            int32_t sum = 0;
            for (int64_t dense = 0; dense < p.k / 2; ++dense) {
                const int64_t fractal = (dense / 32) * n_fractals + n / 16;
                const int32_t value = b[fractal * 512 + (n % 16) * 32 + dense % 32];
                const uint8_t byte = indices[fractal * 128 + (n % 16) * 8 + (dense % 32) / 4];
                const int index = (byte >> (2 * (dense % 4))) & 3;
                const int64_t group = dense / 2;
                sum += a_at(m, 4 * group + (dense % 2 == 0 ? index : 1 + index)) * value;
            }
            int32_t& out = c[(n / 16) * m_fractals * 256 + m * 16 + n % 16];
            out = zero ? sum : out + sum;
        }
    }
}

template <typename T, typename U, typename S>
inline void check_mmad_types() {
    static_assert(std::is_same_v<U, S>, "Mmad takes A and B of the same element type");
    static_assert(cube_input<U>, "Mmad inputs are half, bfloat16_t, float, int8_t or int4b_t");
    static_assert(std::is_same_v<T, accumulator_t<U>>,
                  "Mmad accumulates int8 and int4 into int32_t, the rest into float");
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& mmadParams) {
    using namespace canopy::kernel::ascendc;
    check_mmad_types<T, U, S>();
    const bool zero = mmadParams.cmatrixInitVal && !mmadParams.isBias;
    if (!zero && mmadParams.cmatrixSource) {
        // The initial C is the bias row at the start of the bias table.
        const LocalTensor<T> table(TPosition::C2, 0, mmadParams.n);
        mmad(dst, fm, filter, mmadParams, MmadInit::bias_table, &table);
        return;
    }
    if (zero) {
        mmad(dst, fm, filter, mmadParams, MmadInit::zero, static_cast<const LocalTensor<T>*>(nullptr));
        return;
    }
    mmad(dst, fm, filter, mmadParams, MmadInit::l0c, &dst);
}

// With a bias tensor: in C2 (the bias table) it is the initial row of C; in L0C the initial C.
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const LocalTensor<V>& bias, const MmadParams& mmadParams) {
    using namespace canopy::kernel::ascendc;
    check_mmad_types<T, U, S>();
    static_assert(!packs_nibbles<U>, "Mmad with a bias tensor takes no int4b_t inputs on the A2");
    static_assert(std::is_same_v<T, V>, "Mmad's bias has the accumulator type of dst");
    if (bias.memory() == Hardware::BIAS) {
        if (mmadParams.cmatrixInitVal) {
            mmad(dst, fm, filter, mmadParams, MmadInit::zero, static_cast<const LocalTensor<T>*>(nullptr));
            return;
        }
        require_elements(bias, mmadParams.n, "Mmad", "bias (one value per column of C)");
        mmad(dst, fm, filter, mmadParams, MmadInit::bias_table, &bias);
        return;
    }
    if (bias.memory() != Hardware::L0C) [[unlikely]] {
        fail_misuse("Mmad", "bias is a ", PositionName(bias.position()), " tensor (", HardwareName(bias.memory()),
                    "); it must be in C2 (the bias table) or CO1 (L0C)");
    }
    if (mmadParams.cmatrixInitVal) {
        mmad(dst, fm, filter, mmadParams, MmadInit::zero, static_cast<const LocalTensor<T>*>(nullptr));
        return;
    }
    require_elements(bias, ceil_div(mmadParams.m, 16) * ceil_div(mmadParams.n, 16) * 256, "Mmad",
                     "bias (the initial C in L0C)");
    mmad(dst, fm, filter, mmadParams, MmadInit::l0c, &bias);
}

template <typename T = int32_t, typename U = int8_t>
__aicore__ inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                                      const MmadParams& mmadParams) {
    static_assert(std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t>,
                  "MmadWithSparse multiplies int8_t into int32_t");
    canopy::kernel::ascendc::mmad_sparse(dst, fm, filter, mmadParams);
}

// ---- Mmad's modes (CANN's kernel_operator_mm_intf.h) --------------------------------------------

enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };

// Whether Mmad rounds float inputs to HF32 before multiplying; the mode stays for the core's later
// Mmads (a CTRL register bit on the NPU, which InitSocState does not reset).
__aicore__ inline void SetHF32Mode(bool hf32Mode) { canopy::kernel::ascendc::cube_registers().hf32 = hf32Mode; }
__aicore__ inline void SetHF32Mode(HF32Mode mode) { SetHF32Mode(mode == HF32Mode::ENABLE); }

// How that rounding breaks ties: true (NEAREST_ZERO) away from zero, false (NEAREST_EVEN) to even.
__aicore__ inline void SetHF32TransMode(bool hf32TransMode) {
    canopy::kernel::ascendc::cube_registers().hf32_ties_away = hf32TransMode;
}
__aicore__ inline void SetHF32TransMode(HF32TransMode mode) { SetHF32TransMode(mode == HF32TransMode::NEAREST_ZERO); }

// The order in which the cube produces an Mmad's results (N before M when true). Each result is the
// same sum whichever comes first, and the pipe model orders Mmad as one instruction, so the order
// leaves nothing for Canopy to change.
__aicore__ inline void SetMMLayoutTransform(bool mmLayoutMode) { static_cast<void>(mmLayoutMode); }
__aicore__ inline void SetMMRowMajor() { SetMMLayoutTransform(true); }
__aicore__ inline void SetMMColumnMajor() { SetMMLayoutTransform(false); }

}  // namespace AscendC
