// Kernels of kernel_c_api_test on the A2: CANN's C API on the kernel's own __ubuf__ arrays.
#include <cstdint>

#include "c_api/asc_simd.h"
#include "c_api_kernels.h"
#include "launch_result.h"

__global__ __vector__ void c_api_add(__gm__ float* x, __gm__ float* y, __gm__ float* z, uint32_t n, int32_t mode) {
    asc_init();
    __ubuf__ float x_local[4096];
    __ubuf__ float y_local[4096];
    __ubuf__ float z_local[4096];
    const int64_t first = asc_get_block_idx() * n;
    const uint32_t bytes = n * sizeof(float);
    if (mode == 1) {
        asc_copy_gm2ub_sync(x_local, x + first, bytes);
        asc_copy_gm2ub_sync(y_local, y + first, bytes);
        asc_add_sync(z_local, x_local, y_local, n);
        asc_copy_ub2gm_sync(z + first, z_local, bytes);
        return;
    }
    asc_copy_gm2ub(x_local, x + first, bytes);
    asc_copy_gm2ub(y_local, y + first, bytes);
    if (mode == 0) {
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
    } else if (mode == 2 || mode == 4) {
        asc_sync();
    }
    if (mode == 4) {
        asc_add(z_local, x_local, y_local, uint8_t(n * sizeof(float) / 256), 1, 1, 1, 8, 8, 8);
    } else {
        asc_add(z_local, x_local, y_local, n);
    }
    if (mode == 2 || mode == 4) {
        asc_sync();
    } else {
        asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
        asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
    }
    asc_copy_ub2gm(z + first, z_local, bytes);
}

__global__ __vector__ void c_api_outside_ub(__gm__ float* x) {
    __ubuf__ float x_local[64];
    // 256 bytes before the array, computed as an address (stepping the array's pointer back out of
    // it would be undefined behaviour in C++ itself, which UBSan reports before Canopy's check).
    auto* before = reinterpret_cast<__ubuf__ float*>(reinterpret_cast<std::uintptr_t>(x_local) - 64 * sizeof(float));
    asc_copy_gm2ub(before, x, 64 * sizeof(float));
}

uint32_t launch_c_api_add(uint32_t blocks, void* stream, const float* x, const float* y, float* z, uint32_t n,
                          int32_t mode) {
    clear_launch_error();
    c_api_add<<<blocks, 0, stream>>>(const_cast<float*>(x), const_cast<float*>(y), z, n, mode);
    return launch_result();
}

uint32_t launch_c_api_outside_ub(void* stream, const float* x) {
    clear_launch_error();
    c_api_outside_ub<<<1, 0, stream>>>(const_cast<float*>(x));
    return launch_result();
}
