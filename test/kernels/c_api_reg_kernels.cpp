// Kernels of kernel_c_api_test on the Ascend 950: CANN's C API in a __simd_vf__ function.
#include "c_api/asc_simd.h"
#include "c_api_kernels.h"
#include "launch_result.h"

namespace {

__simd_vf__ inline void fma_vf(__ubuf__ half* x, __ubuf__ half* y, __ubuf__ half* z, uint32_t n, int32_t mode) {
    const uint32_t lanes = uint32_t(asc_get_vf_len() / sizeof(half));
    vector_half a;
    vector_half b;
    vector_half c;
    uint32_t left = n;
    for (uint32_t i = 0; i < n; i += lanes) {
        vector_bool mask = asc_update_mask_b16(left);
        asc_load(a, x + i);
        asc_load(b, y + i);
        asc_mul(c, a, b, mask);
        asc_add(c, c, a, mask);
        asc_store(z + i, c, n - i < lanes ? n - i : lanes);
    }
    if (mode == 1) asc_store(z + 256 * 1024 / sizeof(half) - lanes / 2, c);
}

}  // namespace

__global__ __vector__ void c_api_reg(__gm__ half* x, __gm__ half* y, __gm__ half* z, uint32_t n, int32_t mode) {
    asc_init();
    __ubuf__ half x_local[4096];
    __ubuf__ half y_local[4096];
    __ubuf__ half z_local[4096];
    const int64_t first = asc_get_block_idx() * n;
    const uint32_t bytes = (n * sizeof(half) + 31) / 32 * 32;
    asc_copy_gm2ub(x_local, x + first, bytes);
    asc_copy_gm2ub(y_local, y + first, bytes);
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    asc_vf_call<fma_vf>(x_local, y_local, z_local, n, mode);
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    for (uint32_t i = 0; i < n; ++i) z[first + i] = z_local[i];
}

uint32_t launch_c_api_reg(uint32_t blocks, void* stream, const uint16_t* x, const uint16_t* y, uint16_t* z, uint32_t n,
                          int32_t mode) {
    clear_launch_error();
    c_api_reg<<<blocks, 0, stream>>>(reinterpret_cast<half*>(const_cast<uint16_t*>(x)),
                                     reinterpret_cast<half*>(const_cast<uint16_t*>(y)), reinterpret_cast<half*>(z), n,
                                     mode);
    return launch_result();
}
