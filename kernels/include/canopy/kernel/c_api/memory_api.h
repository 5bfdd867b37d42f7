#pragma once
// CANN's C API for Ascend C kernels (c_api/asc_simd.h), the memory-based part both parts have:
// system variables, initialization, pipe synchronization, GM <-> UB copies and the vector
// instructions on UB addresses. Each function is the basic API's instruction (kernel_operator.h)
// on tensors that view the addresses it is given, so it is checked and modelled exactly as that
// instruction is (the UB range and alignment, the pipe model, deferred MTE2 moves); a UB address
// outside the block's UB fails naming the C API function.
#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"

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

// ---- Vector instructions on UB addresses: `count` elements (the count-mode form)

#define CANOPY_C_API_BINARY(name, Instruction, T)                                                               \
    __aicore__ inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count) {           \
        using canopy::kernel::c_api::ub_tensor;                                                                  \
        AscendC::Instruction(ub_tensor<T>(dst, count, #name), ub_tensor<T>(src0, count, #name),                  \
                             ub_tensor<T>(src1, count, #name), static_cast<int32_t>(count));                     \
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
