#pragma once
// The system variables and utilities of an AI core: which block and which core of it is running,
// the core type the code is running on (ASCEND_IS_AIV / ASCEND_IS_AIC), the cycle counter, the
// state InitSocState resets, and the small arithmetic helpers kernels size their tiles with.
#include <chrono>
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel::ascendc {

// Atomic mode of the copies into GM (SetAtomicAdd / SetAtomicMax / SetAtomicMin / DisableDmaAtomic).
enum class AtomicOperation : uint8_t { none, add, max, min };
// The element type an atomic copy combines as (the type argument of SetAtomicAdd<T>).
enum class AtomicElement : uint8_t { none, f32, f16, bf16, s32, s16, s8 };

// The running block's core registers (canopy/kernel/block.h).
inline CoreRegisters& core_registers() { return current_block().registers; }

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// The core types of the separated (A2) architecture.
enum CoreType : int32_t { AIC = canopy::kernel::core_type_aic, AIV = canopy::kernel::core_type_aiv, MIX = 3 };

}  // namespace AscendC

// The NPU compiler builds a kernel once per core type and these are compile-time constants there
// (impl/utils/sys_macros.h: g_coreType is AIC or AIV in each build, MIX in the host's). canopy-asc
// does the same for a source that depends on it (__CANOPY_CORE_PASS__, canopy/kernel/launch.h);
// otherwise one build runs on both kinds of core, and they read the running core's type. Used as
// `if ASCEND_IS_AIV { ... }`, hence the parentheses.
#if defined(__CANOPY_CORE_PASS__)
constexpr int32_t g_coreType = __CANOPY_CORE_PASS__;
#define ASCEND_IS_AIV constexpr(g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC constexpr(g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(g_coreType != ::AscendC::AIC)
#else
#if defined(__CANOPY_LAUNCH_SCAN__)
// canopy-launch-rewrite parses a source as its vector compilation (canopy-asc defines __DAV_VEC__ for
// that parse too), and has a source using either compiled per core type.
constexpr int32_t g_coreType = ::AscendC::AIV;
#endif
#define ASCEND_IS_AIV (::canopy::kernel::current_block().core_type == ::AscendC::AIV)
#define ASCEND_IS_AIC (::canopy::kernel::current_block().core_type == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::canopy::kernel::current_block().core_type != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::canopy::kernel::current_block().core_type != ::AscendC::AIC)
#endif
#define ASCEND_IS_AICORE (true)

namespace AscendC {

// Index of the running AIC or AIV within its logical core (0 and 1 for the two AIVs of a
// __mix__(1, 2) kernel), and how many of that type each logical core runs.
__aicore__ inline int64_t GetSubBlockIdx() { return canopy::kernel::current_block().sub_block_idx; }
__aicore__ inline int64_t GetSubBlockNum() { return canopy::kernel::current_block().task_ratio; }
__aicore__ inline int64_t GetTaskRatio() { return canopy::kernel::current_block().task_ratio; }
// The spelling several official samples use.
__aicore__ inline int64_t GetTaskRation() { return GetTaskRatio(); }

__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// The A2 answers 0 to these: its UB size is a fixed 192 KiB, not a runtime property, and it has no
// vector registers. The 950 answers its TOTAL_UB_SIZE and VECTOR_REG_WIDTH (asc-devkit
// kernel_operator_sys_var_intf.h), and at run time the block's Unified Buffer.
#if __NPU_ARCH__ == 3510
__aicore__ inline constexpr uint32_t GetUBSizeInBytes() { return TOTAL_UB_SIZE; }
__aicore__ inline uint32_t GetRuntimeUBSize() { return uint32_t(canopy::kernel::current_block().ub_bytes); }
__aicore__ inline constexpr uint32_t GetVecLen() { return VECTOR_REG_WIDTH; }
#else
__aicore__ inline constexpr uint32_t GetUBSizeInBytes() { return 0; }
__aicore__ inline uint32_t GetRuntimeUBSize() { return 0; }
__aicore__ inline constexpr uint32_t GetVecLen() { return 0; }
#endif

// The version register: 0x2201 on the A2; 0x3510 on the 950 by the same pattern (not taken from
// CANN, whose get_arch_ver() value for the 950 Canopy does not know).
__aicore__ inline void GetArchVersion(uint32_t& coreVersion) { coreVersion = __NPU_ARCH__ == 3510 ? 0x3510 : 0x2201; }

// The system counter, which on the A2 runs at 50 MHz: kernels divide differences by 50 for
// microseconds, so the steady clock is scaled to that rate.
__aicore__ inline int64_t GetSystemCycle() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 20;
}

// Resets the core registers kernels configure to their power-on state: the atomic mode of GM
// copies, DataCopyPad's pad value, the vector mask and its mode.
__aicore__ inline void InitSocState() {
    canopy::kernel::BlockContext& block = canopy::kernel::current_block();
    block.registers = canopy::kernel::CoreRegisters{};
    block.vector = canopy::kernel::VectorRegisters{};
}

// The CTRL register's bits as kernels may read and write them. The A2 allows CTRL[48] only (CANN's
// CheckCtrlSprBitRange for dav-2201): the float overflow mode, 0 saturating inf / NaN results, 1
// keeping them. It is the block's saturation mode the vector instructions apply (eigen_map.h).
template <int8_t startBit, int8_t endBit>
__aicore__ static inline void SetCtrlSpr(int64_t value) {
    static_assert(startBit == 48 && endBit == 48, "startBit and endBit must be both 48 on the A2");
    canopy::kernel::current_block().saturates = (value & 1) == 0;
}

template <int8_t startBit, int8_t endBit>
__aicore__ static inline int64_t GetCtrlSpr() {
    static_assert(startBit == 48 && endBit == 48, "startBit and endBit must be both 48 on the A2");
    return canopy::kernel::current_block().saturates ? 0 : 1;
}

// Task-level ordering between consecutive kernels of a stream: the stream already starts a launch
// only once the previous one has ended, so the early start these allow never happens and there is
// nothing left to wait for.
__aicore__ inline void SetNextTaskStart() {}
__aicore__ inline void WaitPreTaskEnd() {}

// ---- Arithmetic helpers (constexpr where Ascend C has them constexpr) --------------------------

__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// A division by zero answers 0, as the A2's repeat-ceiling instruction does.
__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

// The bits an element of T occupies (CANN's kernel_utils_constants.h: int4b_t packs two to a byte).
template <typename T>
struct SizeOfBits {
    static constexpr uint32_t value = sizeof(T) * 8;
};

// A bfloat16_t scalar as a float: its bits are a float's upper half, so the conversion is exact.
__aicore__ inline float Cast(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
// ToFloat is Cast's name before CANN 9.1 (kernel_scalar_convert.h).
__aicore__ inline float ToFloat(const bfloat16_t& bVal) { return Cast(bVal); }

// Type traits in Ascend C's spelling.
using TrueType = std::true_type;
using FalseType = std::false_type;
template <typename T, typename U>
struct IsSameType : public FalseType {};
template <typename T>
struct IsSameType<T, T> : public TrueType {};
template <bool condition, typename IfTrue, typename IfFalse>
struct Conditional {
    using type = std::conditional_t<condition, IfTrue, IfFalse>;
};
// Picks one of four types by two conditions: (c1, c2) = (true, true) -> T1, (true, false) -> T2,
// (false, true) -> T3, (false, false) -> T4.
template <bool condition1, bool condition2, typename T1, typename T2, typename T3, typename T4>
struct ConditionalMulti {
    using type = std::conditional_t<condition1, std::conditional_t<condition2, T1, T2>,
                                    std::conditional_t<condition2, T3, T4>>;
};

}  // namespace AscendC
