#pragma once
// Ascend C's vocabulary as a CPU compiler sees it: the qualifiers, the element types, the logical
// positions and the physical memories behind them, the pipe / event / rounding enumerations.
// Names and underlying types follow the Ascend C headers so that kernel sources compile unchanged.
#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/half.h"
#include "canopy/kernel/block.h"

#include "canopy/kernel/qualifiers.h"
#include "canopy/soc.h"

// The part the kernel is built for: canopy-asc defines __NPU_ARCH__ from --npu-arch (2201, Atlas A2,
// or 3510, Ascend 950); sources compiled otherwise are Atlas A2 kernels. Kernel sources select
// their code paths with it, and the kernel API's memory sizes are that part's (canopy/soc.h). The
// kernels of one program are built for one part.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
static_assert(canopy::soc::models_part(__NPU_ARCH__),
              "__NPU_ARCH__ names no part Canopy models: 2201 (Atlas A2, dav-2201) or 3510 (Ascend 950, dav-3510)");

// A kernel parameter that points into global memory.
#define GM_ADDR __gm__ uint8_t*

// Branch hints the kernel headers define for kernels (kernel_utils_macros.h), unless the program
// already has its own.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// IEEE binary16 and bfloat16, the NPU's native narrow floats. half converts implicitly, as the NPU
// compiler's native half does (half.h).
using half = canopy::kernel::ascendc::Half;
using bfloat16_t = Eigen::bfloat16;

// Hardware pipes named by PipeBarrier<pipe>() (global names, as the NPU compiler defines them).
typedef enum {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
} pipe_t;

// Event ids for SetFlag / WaitFlag; the A2 has eight per event type.
typedef enum {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
} event_t;

// Conversion applied by Fixpipe while it moves L0C results out (global names, as on the NPU).
typedef enum {
    NoQuant = 0,
    F322F16 = 1,
    VDEQF16 = 4,
    DEQF16 = 5,
    VREQ8 = 8,
    REQ8 = 9,
    F322BF16 = 16,
    VQF322B8_PRE = 23,
    QF322B8_PRE = 24,
} QuantMode_t;

namespace AscendC {

// Logical positions: where a tensor lives from the program's point of view.
enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

// Physical memories of an AI core.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Synchronisation between two pipes, named source_destination.
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,   // to nearest, ties to even
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,  // to nearest, ties away from zero
    CAST_TRUNC,  // toward zero
    CAST_ODD,    // von Neumann rounding: inexact results get an odd last bit
    UNKNOWN = 0xFF,
};

using TEventID = int8_t;

// Sizes and defaults the API is defined in, with the types the A2's kernel headers give them.
const uint16_t ONE_BLK_SIZE = 32;             // one data block: the DMA and UB alignment unit
const int32_t ONE_REPEAT_BYTE_SIZE = 256;     // what one vector instruction repeat consumes
const int32_t BLOCK_CUBE = 16;                // rows (and columns) of a cube fractal
const int32_t CUBE_MAX_SIZE = 256;            // elements of a 16 x 16 fractal
constexpr uint32_t QBUF_MAX_LEN = 64;         // buffers one TPipe can hand out
constexpr int32_t QUE_MAX_EVENT = 8;          // event ids per HardEvent
const int32_t HALF_FACTOR = 2;
const int32_t DOUBLE_FACTOR = 2;
const uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
const uint64_t FULL_MASK = 0xffffffffffffffff;
const int32_t DEFAULT_C0_SIZE = 32;
const int32_t DEFAULT_BLOCK_SIZE = 256;
const int32_t ONE_BYTE_BIT_SIZE = 8;
// The part the kernel is built for (__NPU_ARCH__), whose sizes follow.
static constexpr const canopy::soc::Part& BUILT_PART = *canopy::soc::find_part(__NPU_ARCH__);
const uint32_t TOTAL_L0A_SIZE = uint32_t(BUILT_PART.l0a_bytes);
const uint32_t TOTAL_L0B_SIZE = uint32_t(BUILT_PART.l0b_bytes);
const int32_t TOTAL_VEC_LOCAL_SIZE = int32_t(BUILT_PART.vec_local_bytes);
const uint32_t TOTAL_UB_SIZE = uint32_t(BUILT_PART.ub_bytes);
const uint32_t TOTAL_L1_SIZE = uint32_t(BUILT_PART.kernel_l1_bytes);
const uint32_t TOTAL_L0C_SIZE = uint32_t(BUILT_PART.l0c_bytes);
#if __NPU_ARCH__ == 3510
// A vector register's bytes (GetVecLen()), on the register-based parts only, as in CANN.
const uint32_t VECTOR_REG_WIDTH = BUILT_PART.vector_length_bytes;
#endif
const uint32_t CACHE_LINE_SIZE = 64;
const int32_t BYTE_PER_FRACTAL = 512;
const int32_t FULL_MASK_LEN = 128;
const int32_t HALF_MASK_LEN = 64;
const uint8_t B64_BYTE_SIZE = 8;
const uint8_t B32_BYTE_SIZE = 4;
const uint8_t B16_BYTE_SIZE = 2;
const uint8_t B8_BYTE_SIZE = 1;
const uint8_t B32_DATA_NUM_PER_BLOCK = 8;
const uint8_t B16_DATA_NUM_PER_BLOCK = 16;
const int32_t B16_DATA_NUM_PER_REPEAT = 128;
const int32_t B32_DATA_NUM_PER_REPEAT = 64;
const uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
const uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
const uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
const uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
const uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
const uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;

// Capacities of a core of the part the kernel is built for, as its platform files list them
// ([AICoreSpec] l1_size, l0_a_size, l0_b_size, l0_c_size, bt_size; the fixpipe buffer is fb0_size +
// fb1_size + fb2_size + fb3_size: 7 KiB on the A2, 6 KiB on the 950; canopy/soc.h). The UB size is
// the launch's (current_block().ub_bytes: the modelled part's ub_size by default).
constexpr std::size_t L1_BYTES = BUILT_PART.l1_bytes;
constexpr std::size_t L0A_BYTES = BUILT_PART.l0a_bytes;
constexpr std::size_t L0B_BYTES = BUILT_PART.l0b_bytes;
constexpr std::size_t L0C_BYTES = BUILT_PART.l0c_bytes;
constexpr std::size_t BIAS_TABLE_BYTES = BUILT_PART.bias_table_bytes;  // C2: Mmad's bias row
constexpr std::size_t FIXPIPE_BUFFER_BYTES = BUILT_PART.fixpipe_bytes;  // C2PIPE2GM: Fixpipe's quantization words

// The physical memory behind a logical position (the A2 mapping).
constexpr Hardware GetPhyType(TPosition position) {
    switch (position) {
        case TPosition::GM: return Hardware::GM;
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
        case TPosition::TSCM: return Hardware::L1;
        case TPosition::A2: return Hardware::L0A;
        case TPosition::B2: return Hardware::L0B;
        case TPosition::CO1: return Hardware::L0C;
        case TPosition::C2: return Hardware::BIAS;
        case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
        case TPosition::CO2:
        case TPosition::VECIN:
        case TPosition::VECOUT:
        case TPosition::VECCALC: return Hardware::UB;
        default: return Hardware::MAX;
    }
}

constexpr const char* PositionName(TPosition position) {
    switch (position) {
        case TPosition::GM: return "GM";
        case TPosition::A1: return "A1";
        case TPosition::A2: return "A2";
        case TPosition::B1: return "B1";
        case TPosition::B2: return "B2";
        case TPosition::C1: return "C1";
        case TPosition::C2: return "C2";
        case TPosition::CO1: return "CO1";
        case TPosition::CO2: return "CO2";
        case TPosition::VECIN: return "VECIN";
        case TPosition::VECOUT: return "VECOUT";
        case TPosition::VECCALC: return "VECCALC";
        case TPosition::SPM: return "SPM";
        case TPosition::TSCM: return "TSCM";
        case TPosition::C2PIPE2GM: return "C2PIPE2GM";
        default: return "unsupported position";
    }
}

constexpr const char* HardwareName(Hardware hardware) {
    switch (hardware) {
        case Hardware::GM: return "GM";
        case Hardware::UB: return "UB";
        case Hardware::L1: return "L1";
        case Hardware::L0A: return "L0A";
        case Hardware::L0B: return "L0B";
        case Hardware::L0C: return "L0C";
        case Hardware::BIAS: return "BiasTable";
        case Hardware::FIXBUF: return "FixBuffer";
        default: return "unsupported memory";
    }
}

// This core's index and the launch's logical core count (numBlocks). On the AIVs of a __mix__
// kernel the index counts AIVs: [0, numBlocks * GetTaskRatio()), the logical core's block_idx
// times the AIVs per logical core plus GetSubBlockIdx(); elsewhere the two are equal.
__aicore__ inline int64_t GetBlockIdx() {
    const canopy::kernel::BlockContext& block = canopy::kernel::current_block();
    return block_idx * block.task_ratio + block.sub_block_idx;
}
__aicore__ inline int64_t GetBlockNum() { return block_num; }

}  // namespace AscendC
