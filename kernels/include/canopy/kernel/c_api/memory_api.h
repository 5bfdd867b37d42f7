#pragma once
// CANN's C API for Ascend C kernels (c_api/asc_simd.h), the memory-based part both parts have:
// system variables, initialization, pipe synchronization, GM <-> UB copies and the vector
// instructions on UB addresses. Each function is the basic API's instruction (kernel_operator.h)
// on tensors that view the addresses it is given, so it is checked and modelled exactly as that
// instruction is (the UB range and alignment, the pipe model, deferred MTE2 moves); a UB address
// outside the block's UB fails naming the C API function.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"

// The L2 cache modes a copy may ask for (the 950's copy forms take them; the model has no L2).
enum class asc_load_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0,
    NORMAL_LAST_VICTIM = 1,
    NORMAL_PERSISTENT = 2,
    NOTALLOC_KEEP = 4,
    NOTALLOC_CLEAN = 5,
    NOTALLOC_DROP = 6
};

enum class asc_store_l2_cache_mode : uint8_t {
    NORMAL_FIRST_VICTIM = 0,
    NORMAL_LAST_VICTIM = 1,
    NORMAL_PERSISTENT = 2,
    NOTALLOC_CLEAN = 4
};

namespace canopy::kernel::c_api {

// `count` elements of T at the UB address `address`, as a UB tensor; `api` names the caller.
template <typename T>
AscendC::LocalTensor<T> ub_tensor(const void* address, uint64_t count, const char* api) {
    const BlockContext& block = current_block();
    const auto* at = static_cast<const std::byte*>(address);
    const uint64_t bytes = count * sizeof(T);
    if (block.ub == nullptr) [[unlikely]] {
        ascendc::fail_misuse(api, "this core has no Unified Buffer (an AIC)");
    }
    if (at < block.ub || bytes > block.ub_bytes || uint64_t(at - block.ub) > block.ub_bytes - bytes) [[unlikely]] {
        ascendc::fail_misuse(api, bytes, " bytes at address ", reinterpret_cast<uintptr_t>(address), " (UB byte offset ",
                             static_cast<int64_t>(reinterpret_cast<uintptr_t>(at) - reinterpret_cast<uintptr_t>(block.ub)),
                             ") are not in the block's ", block.ub_bytes, "-byte Unified Buffer");
    }
    const auto offset = static_cast<uint32_t>(at - block.ub);
    if (offset % 32 != 0) [[unlikely]] {
        ascendc::fail_misuse(api, "UB byte ", offset, " is not 32-byte aligned");
    }
    return AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC, offset, static_cast<uint32_t>(count));
}

template <typename T>
AscendC::GlobalTensor<T> gm_tensor(const void* address, uint64_t count) {
    AscendC::GlobalTensor<T> tensor;
    tensor.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(address)), count);
    return tensor;
}

// The bytes a strided copy of n_burst bursts of len_burst 32-byte blocks spans, `gap` blocks apart.
inline uint64_t burst_span(uint16_t n_burst, uint64_t len_burst, uint64_t gap) {
    return n_burst == 0 ? 0 : (uint64_t(n_burst) * (len_burst + gap) - gap) * 32;
}

// The UB bytes `repeat` repeats of eight 32-byte blocks span, `block_stride` blocks between the blocks
// of a repeat and `repeat_stride` blocks between repeats (the repeat form, which uses the mask register).
inline uint64_t repeat_span(uint8_t repeat, uint8_t block_stride, uint8_t repeat_stride) {
    if (repeat == 0) return 32;
    return (uint64_t(repeat - 1) * repeat_stride + 7 * uint64_t(block_stride)) * 32 + 32;
}

// The C API's `_sync` forms: the instruction, then every pipe drained (pipe_barrier(PIPE_ALL)).
inline void sync_post_process() { canopy::kernel::pipe_barrier_all(); }

}  // namespace canopy::kernel::c_api

// ---- System variables and initialization

__aicore__ inline int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
__aicore__ inline int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }

// The core's state as a C API kernel expects it: no atomic copies, normal mask mode, every lane.
__aicore__ inline void asc_init() {
    if (canopy::kernel::current_block().core_type != canopy::kernel::core_type_aiv) return;
    AscendC::SetAtomicNone();
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
}

// ---- Synchronization between pipes

__aicore__ inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, int32_t id) {
    using namespace canopy::kernel::ascendc;
    require_pipe(pipe, "asc_sync_notify");
    require_pipe(tpipe, "asc_sync_notify");
    const AscendC::HardEvent event = hard_event_between(pipe_of(pipe), pipe_of(tpipe));
    if (event == AscendC::HardEvent::MAX) [[unlikely]] {
        fail_misuse("asc_sync_notify", "there is no event from ", canopy::kernel::pipe_name(pipe_of(pipe)), " to ",
                    canopy::kernel::pipe_name(pipe_of(tpipe)));
    }
    set_flag(event, id, "asc_sync_notify");
}

__aicore__ inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, int32_t id) {
    using namespace canopy::kernel::ascendc;
    require_pipe(pipe, "asc_sync_wait");
    require_pipe(tpipe, "asc_sync_wait");
    const AscendC::HardEvent event = hard_event_between(pipe_of(pipe), pipe_of(tpipe));
    if (event == AscendC::HardEvent::MAX) [[unlikely]] {
        fail_misuse("asc_sync_wait", "there is no event from ", canopy::kernel::pipe_name(pipe_of(pipe)), " to ",
                    canopy::kernel::pipe_name(pipe_of(tpipe)));
    }
    wait_flag(event, id, "asc_sync_wait");
}

__aicore__ inline void asc_sync_pipe(pipe_t pipe) { pipe_barrier(pipe); }
__aicore__ inline void asc_sync() { pipe_barrier(PIPE_ALL); }

// ---- GM <-> UB copies (MTE2 / MTE3): n_burst bursts of len_burst 32-byte blocks, src_gap / dst_gap
// blocks between them; the size forms copy size / 32 whole blocks.

__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst, uint16_t len_burst,
                                      uint16_t src_gap, uint16_t dst_gap) {
    using namespace canopy::kernel::c_api;
    if (n_burst == 0 || len_burst == 0) return;
    AscendC::DataCopy(ub_tensor<uint8_t>(dst, burst_span(n_burst, len_burst, dst_gap), "asc_copy_gm2ub"),
                      gm_tensor<uint8_t>(src, burst_span(n_burst, len_burst, src_gap)),
                      AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap));
}
__aicore__ inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size) {
    asc_copy_gm2ub(dst, src, 1, static_cast<uint16_t>(size / 32), 0, 0);
}
__aicore__ inline void asc_copy_gm2ub_sync(__ubuf__ void* dst, __gm__ void* src, uint32_t size) {
    asc_copy_gm2ub(dst, src, size);
    canopy::kernel::c_api::sync_post_process();
}

__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst, uint16_t len_burst,
                                      uint16_t src_gap, uint16_t dst_gap) {
    using namespace canopy::kernel::c_api;
    if (n_burst == 0 || len_burst == 0) return;
    AscendC::DataCopy(gm_tensor<uint8_t>(dst, burst_span(n_burst, len_burst, dst_gap)),
                      ub_tensor<uint8_t>(src, burst_span(n_burst, len_burst, src_gap), "asc_copy_ub2gm"),
                      AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap));
}
__aicore__ inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size) {
    asc_copy_ub2gm(dst, src, 1, static_cast<uint16_t>(size / 32), 0, 0);
}
__aicore__ inline void asc_copy_ub2gm_sync(__gm__ void* dst, __ubuf__ void* src, uint32_t size) {
    asc_copy_ub2gm(dst, src, size);
    canopy::kernel::c_api::sync_post_process();
}

// ---- Vector instructions on UB addresses: `count` elements (the count-mode form), or `repeat`
// repeats with block and repeat strides under the mask register (asc_init sets every lane)

#define CANOPY_C_API_BINARY(name, Instruction, T)                                                               \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) {           \
        using canopy::kernel::c_api::ub_tensor;                                                                  \
        AscendC::Instruction(ub_tensor<T>(dst, count, #name), ub_tensor<T>(src0, count, #name),                  \
                             ub_tensor<T>(src1, count, #name), static_cast<int32_t>(count));                     \
    }                                                                                                            \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,             \
                                uint8_t dst_block_stride, uint8_t src0_block_stride, uint8_t src1_block_stride,  \
                                uint8_t dst_repeat_stride, uint8_t src0_repeat_stride, uint8_t src1_repeat_stride) { \
        using canopy::kernel::c_api::repeat_span;                                                                \
        using canopy::kernel::c_api::ub_tensor;                                                                  \
        AscendC::Instruction<T, false>(                                                                          \
            ub_tensor<T>(dst, repeat_span(repeat, dst_block_stride, dst_repeat_stride) / sizeof(T), #name),      \
            ub_tensor<T>(src0, repeat_span(repeat, src0_block_stride, src0_repeat_stride) / sizeof(T), #name),   \
            ub_tensor<T>(src1, repeat_span(repeat, src1_block_stride, src1_repeat_stride) / sizeof(T), #name),   \
            uint64_t(0), repeat,                                                                                 \
            AscendC::BinaryRepeatParams(dst_block_stride, src0_block_stride, src1_block_stride, dst_repeat_stride, \
                                        src0_repeat_stride, src1_repeat_stride));                                \
    }                                                                                                            \
    __aicore__ inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) {    \
        name(dst, src0, src1, count);                                                                            \
        canopy::kernel::c_api::sync_post_process();                                                              \
    }

CANOPY_C_API_BINARY(asc_add, Add, half)
CANOPY_C_API_BINARY(asc_add, Add, float)
CANOPY_C_API_BINARY(asc_add, Add, int16_t)
CANOPY_C_API_BINARY(asc_add, Add, int32_t)
CANOPY_C_API_BINARY(asc_sub, Sub, half)
CANOPY_C_API_BINARY(asc_sub, Sub, float)
CANOPY_C_API_BINARY(asc_sub, Sub, int16_t)
CANOPY_C_API_BINARY(asc_sub, Sub, int32_t)
CANOPY_C_API_BINARY(asc_mul, Mul, half)
CANOPY_C_API_BINARY(asc_mul, Mul, float)
CANOPY_C_API_BINARY(asc_mul, Mul, int16_t)
CANOPY_C_API_BINARY(asc_mul, Mul, int32_t)
CANOPY_C_API_BINARY(asc_div, Div, half)
CANOPY_C_API_BINARY(asc_div, Div, float)
CANOPY_C_API_BINARY(asc_max, Max, half)
CANOPY_C_API_BINARY(asc_max, Max, float)
CANOPY_C_API_BINARY(asc_max, Max, int16_t)
CANOPY_C_API_BINARY(asc_max, Max, int32_t)
CANOPY_C_API_BINARY(asc_min, Min, half)
CANOPY_C_API_BINARY(asc_min, Min, float)
CANOPY_C_API_BINARY(asc_min, Min, int16_t)
CANOPY_C_API_BINARY(asc_min, Min, int32_t)

#undef CANOPY_C_API_BINARY

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// ---- The 950's aligned copies (DataCopyPad): n_burst bursts of len_burst bytes, the GM bursts
// src_stride / dst_stride bytes apart from start to start, the UB bursts dst_stride / src_stride bytes
// apart (each 32-byte aligned, padded on the way in by left / right padding elements, with the pad
// value asc_set_copy_pad_val set when enable_constant_pad); the size forms copy one burst of `size`
// bytes. The L2 cache mode has no effect on the model.

namespace canopy::kernel::c_api {

// The gap between bursts `stride` bytes apart from start to start, `burst` bytes each; `unit` 32 for UB.
inline uint32_t burst_gap(const char* api, const char* name, uint64_t stride, uint64_t burst, uint16_t n_burst,
                          uint64_t unit) {
    if (n_burst <= 1) return 0;
    if (stride < burst || (stride - burst) % unit != 0) [[unlikely]] {
        ascendc::fail_misuse(api, name, " ", stride, " is not a start-to-start distance of bursts of ", burst,
                             " bytes", unit > 1 ? " (a whole number of 32-byte blocks past the burst)" : "");
    }
    return static_cast<uint32_t>((stride - burst) / unit);
}

template <typename T>
void copy_gm2ub_align(const char* api, __ubuf__ T* dst, __gm__ T* src, uint16_t n_burst, uint32_t len_burst,
                      uint8_t left, uint8_t right, bool pad, uint64_t src_stride, uint32_t dst_stride) {
    if (n_burst == 0 || len_burst == 0) return;
    const uint64_t ub_burst = (uint64_t(len_burst) + (uint64_t(left) + right) * sizeof(T) + 31) / 32 * 32;
    const uint32_t src_gap = burst_gap(api, "src_stride", src_stride, len_burst, n_burst, 1);
    const uint32_t dst_gap = burst_gap(api, "dst_stride", dst_stride, ub_burst, n_burst, 32);
    T pad_value{};
    if (pad) {
        const uint64_t bits = current_block().registers.pad_value;
        std::memcpy(static_cast<void*>(&pad_value), &bits, sizeof(T));
    }
    const uint64_t ub_bytes = uint64_t(n_burst) * (ub_burst + uint64_t(dst_gap) * 32) - uint64_t(dst_gap) * 32;
    const uint64_t gm_bytes = uint64_t(n_burst) * (len_burst + uint64_t(src_gap)) - src_gap;
    AscendC::DataCopyPad(ub_tensor<T>(dst, ub_bytes / sizeof(T), api), gm_tensor<T>(src, (gm_bytes + sizeof(T) - 1) / sizeof(T)),
                         AscendC::DataCopyExtParams(n_burst, len_burst, src_gap, dst_gap, 0),
                         AscendC::DataCopyPadExtParams<T>(pad, left, right, pad_value));
}

template <typename T>
void copy_ub2gm_align(const char* api, __gm__ T* dst, __ubuf__ T* src, uint16_t n_burst, uint32_t len_burst,
                      uint64_t dst_stride, uint32_t src_stride) {
    if (n_burst == 0 || len_burst == 0) return;
    const uint64_t ub_burst = (uint64_t(len_burst) + 31) / 32 * 32;
    const uint32_t dst_gap = burst_gap(api, "dst_stride", dst_stride, len_burst, n_burst, 1);
    const uint32_t src_gap = burst_gap(api, "src_stride", src_stride, ub_burst, n_burst, 32);
    const uint64_t ub_bytes = uint64_t(n_burst) * (ub_burst + uint64_t(src_gap) * 32) - uint64_t(src_gap) * 32;
    const uint64_t gm_bytes = uint64_t(n_burst) * (len_burst + uint64_t(dst_gap)) - dst_gap;
    AscendC::DataCopyPad(gm_tensor<T>(dst, (gm_bytes + sizeof(T) - 1) / sizeof(T)), ub_tensor<T>(src, ub_bytes / sizeof(T), api),
                         AscendC::DataCopyExtParams(n_burst, len_burst, src_gap, dst_gap, 0));
}

}  // namespace canopy::kernel::c_api

#define CANOPY_C_API_ALIGNED_COPIES(T)                                                                          \
    __aicore__ inline void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint16_t n_burst, uint32_t len_burst, \
                                                uint8_t left_padding_num, uint8_t right_padding_num,              \
                                                bool enable_constant_pad, asc_load_l2_cache_mode l2_cache_mode,   \
                                                uint64_t src_stride, uint32_t dst_stride) {                       \
        static_cast<void>(l2_cache_mode);                                                                      \
        canopy::kernel::c_api::copy_gm2ub_align("asc_copy_gm2ub_align", dst, src, n_burst, len_burst,          \
                                                left_padding_num, right_padding_num, enable_constant_pad,       \
                                                src_stride, dst_stride);                                        \
    }                                                                                                           \
    __aicore__ inline void asc_copy_gm2ub_align(__ubuf__ T* dst, __gm__ T* src, uint32_t size) {               \
        canopy::kernel::c_api::copy_gm2ub_align("asc_copy_gm2ub_align", dst, src, 1, size, 0, 0, false, 0, 0);  \
    }                                                                                                           \
    __aicore__ inline void asc_copy_gm2ub_align_sync(__ubuf__ T* dst, __gm__ T* src, uint32_t size) {          \
        asc_copy_gm2ub_align(dst, src, size);                                                                   \
        canopy::kernel::c_api::sync_post_process();                                                             \
    }                                                                                                           \
    __aicore__ inline void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint16_t n_burst, uint32_t len_burst, \
                                                asc_store_l2_cache_mode l2_cache_mode, uint64_t dst_stride,       \
                                                uint32_t src_stride) {                                           \
        static_cast<void>(l2_cache_mode);                                                                      \
        canopy::kernel::c_api::copy_ub2gm_align("asc_copy_ub2gm_align", dst, src, n_burst, len_burst,          \
                                                dst_stride, src_stride);                                        \
    }                                                                                                           \
    __aicore__ inline void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src, uint32_t size) {               \
        canopy::kernel::c_api::copy_ub2gm_align("asc_copy_ub2gm_align", dst, src, 1, size, 0, 0);               \
    }                                                                                                           \
    __aicore__ inline void asc_copy_ub2gm_align_sync(__gm__ T* dst, __ubuf__ T* src, uint32_t size) {          \
        asc_copy_ub2gm_align(dst, src, size);                                                                   \
        canopy::kernel::c_api::sync_post_process();                                                             \
    }

CANOPY_C_API_ALIGNED_COPIES(int8_t)
CANOPY_C_API_ALIGNED_COPIES(uint8_t)
CANOPY_C_API_ALIGNED_COPIES(int16_t)
CANOPY_C_API_ALIGNED_COPIES(uint16_t)
CANOPY_C_API_ALIGNED_COPIES(half)
CANOPY_C_API_ALIGNED_COPIES(bfloat16_t)
CANOPY_C_API_ALIGNED_COPIES(int32_t)
CANOPY_C_API_ALIGNED_COPIES(uint32_t)
CANOPY_C_API_ALIGNED_COPIES(float)

#undef CANOPY_C_API_ALIGNED_COPIES
#endif
