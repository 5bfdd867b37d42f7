#pragma once
// CANN's C API for the Ascend 950's vector functions (c_api/asc_simd.h with __NPU_ARCH__ 3510):
// the vector_* register types and the asc_* register instructions a __simd_vf__ function calls.
// vector_<type> is AscendC::Reg::RegTensor<type> and vector_bool the mask register, and every
// function is the register API's instruction (canopy/kernel/ascendc/reg/), with its checks: as in
// CANN, asc_load and asc_store are the unaligned load and store, asc_store of a count stores that
// many elements, and the arithmetic is zeroing (masked-off lanes become 0).
#include <cstdint>

#include "kernel_operator.h"

using vector_bool = AscendC::Reg::MaskReg;
using vector_uint8_t = AscendC::Reg::RegTensor<uint8_t>;
using vector_uint16_t = AscendC::Reg::RegTensor<uint16_t>;
using vector_uint32_t = AscendC::Reg::RegTensor<uint32_t>;
using vector_int8_t = AscendC::Reg::RegTensor<int8_t>;
using vector_int16_t = AscendC::Reg::RegTensor<int16_t>;
using vector_int32_t = AscendC::Reg::RegTensor<int32_t>;
using vector_half = AscendC::Reg::RegTensor<half>;
using vector_float = AscendC::Reg::RegTensor<float>;
using vector_bfloat16_t = AscendC::Reg::RegTensor<bfloat16_t>;

// The vector length in bytes (a register).
__aicore__ inline constexpr int64_t asc_get_vf_len() { return AscendC::GetVecLen(); }

// A mask of the first min(value, lanes) lanes of 8-, 16- or 32-bit elements; value decreases by
// the lanes (to 0).
__simd_callee__ inline vector_bool asc_update_mask_b8(uint32_t& value) { return AscendC::Reg::UpdateMask<uint8_t>(value); }
__simd_callee__ inline vector_bool asc_update_mask_b16(uint32_t& value) { return AscendC::Reg::UpdateMask<uint16_t>(value); }
__simd_callee__ inline vector_bool asc_update_mask_b32(uint32_t& value) { return AscendC::Reg::UpdateMask<uint32_t>(value); }

#define CANOPY_C_API_REG_MOVES(T)                                                                             \
    __simd_callee__ inline void asc_load(AscendC::Reg::RegTensor<T>& dst, __ubuf__ T* src) {                  \
        AscendC::Reg::UnalignRegForLoad ureg;                                                                 \
        AscendC::Reg::LoadUnAlignPre(ureg, src);                                                              \
        AscendC::Reg::LoadUnAlign<T>(dst, ureg, src);                                                         \
    }                                                                                                         \
    __simd_callee__ inline void asc_store(__ubuf__ T* dst, AscendC::Reg::RegTensor<T> src, uint32_t count) {  \
        AscendC::Reg::UnalignRegForStore ureg;                                                                \
        __ubuf__ T* at = dst;                                                                                 \
        AscendC::Reg::StoreUnAlign<T>(at, src, ureg, count);                                                  \
        AscendC::Reg::StoreUnAlignPost<T>(at, ureg, 0);                                                       \
    }                                                                                                         \
    __simd_callee__ inline void asc_store(__ubuf__ T* dst, AscendC::Reg::RegTensor<T> src) {                  \
        asc_store(dst, src, uint32_t(AscendC::GetVecLen() / sizeof(T)));                                      \
    }

CANOPY_C_API_REG_MOVES(uint8_t)
CANOPY_C_API_REG_MOVES(uint16_t)
CANOPY_C_API_REG_MOVES(uint32_t)
CANOPY_C_API_REG_MOVES(int8_t)
CANOPY_C_API_REG_MOVES(int16_t)
CANOPY_C_API_REG_MOVES(int32_t)
CANOPY_C_API_REG_MOVES(half)
CANOPY_C_API_REG_MOVES(float)
CANOPY_C_API_REG_MOVES(bfloat16_t)

#undef CANOPY_C_API_REG_MOVES

#define CANOPY_C_API_REG_BINARY(name, Instruction, T)                                                          \
    __simd_callee__ inline void name(AscendC::Reg::RegTensor<T>& dst, AscendC::Reg::RegTensor<T> src0,          \
                                     AscendC::Reg::RegTensor<T> src1, vector_bool mask) {                       \
        AscendC::Reg::Instruction(dst, src0, src1, mask);                                                       \
    }

#define CANOPY_C_API_REG_BINARY_TYPES(name, Instruction)                                                       \
    CANOPY_C_API_REG_BINARY(name, Instruction, uint8_t)                                                        \
    CANOPY_C_API_REG_BINARY(name, Instruction, int8_t)                                                         \
    CANOPY_C_API_REG_BINARY(name, Instruction, uint16_t)                                                       \
    CANOPY_C_API_REG_BINARY(name, Instruction, int16_t)                                                        \
    CANOPY_C_API_REG_BINARY(name, Instruction, uint32_t)                                                       \
    CANOPY_C_API_REG_BINARY(name, Instruction, int32_t)                                                        \
    CANOPY_C_API_REG_BINARY(name, Instruction, half)                                                           \
    CANOPY_C_API_REG_BINARY(name, Instruction, float)

CANOPY_C_API_REG_BINARY_TYPES(asc_add, Add)
CANOPY_C_API_REG_BINARY_TYPES(asc_sub, Sub)
CANOPY_C_API_REG_BINARY_TYPES(asc_mul, Mul)
CANOPY_C_API_REG_BINARY_TYPES(asc_max, Max)
CANOPY_C_API_REG_BINARY_TYPES(asc_min, Min)

#undef CANOPY_C_API_REG_BINARY_TYPES
#undef CANOPY_C_API_REG_BINARY
