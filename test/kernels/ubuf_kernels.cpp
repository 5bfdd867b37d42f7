// Kernels of kernel_ubuf_test: __ubuf__ arrays declared by a kernel, a function it calls, a
// template function and a __simd_vf__ function, and extern __ubuf__ arrays of unknown bound (the
// launch's dynamic UB), each rewritten by the kernel compiler into a place in the block's modelled
// UB (canopy/kernel/ub_array.h). Built for dav-3510.
#include <cstddef>

#include "kernel_operator.h"
#include "launch_result.h"
#include "ubuf_kernels.h"

using namespace AscendC;

// The dynamic UB, named at namespace scope as the SIMT samples do.
extern __ubuf__ float global_dynamic[];

namespace {

constexpr uint32_t kLanes = GetVecLen() / sizeof(float);

int64_t ub_offset(const void* address) {
    return static_cast<const std::byte*>(address) - canopy::kernel::current_block().ub;
}

// A VF with its own array: each register goes through it on the way from x + y to z.
__simd_vf__ inline void add_vf(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* z, uint32_t n,
                               int64_t* vf_offset) {
    __ubuf__ float staging[kLanes];
    *vf_offset = ub_offset(staging);
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::RegTensor<float> a;
    Reg::RegTensor<float> b;
    for (uint32_t i = 0; i < n; i += kLanes) {
        Reg::LoadAlign(a, x + i);
        Reg::LoadAlign(b, y + i);
        Reg::Add(a, a, b, all);
        Reg::StoreAlign(staging, a, all);
        Reg::LoadAlign(b, staging);
        Reg::StoreAlign(z + i, b, all);
    }
}

template <typename T>
int64_t template_array_offset() {
    __ubuf__ T values[16];
    values[0] = T(1);
    return ub_offset(values);
}

int64_t static_array_offset() {
    static __ubuf__ half halves[48];
    return ub_offset(halves);
}

}  // namespace

__global__ __vector__ void ubuf_add(__gm__ float* x, __gm__ float* y, __gm__ float* z, __gm__ float* w, uint32_t n,
                                    uint32_t dynamic_floats, UbufRecord* records) {
    UbufRecord& record = records[GetBlockIdx()];
    __ubuf__ float x_local[2048], y_local[2048];
    __ubuf__ float z_local[2048];
    __ubuf__ int16_t grid[4][8];
    extern __ubuf__ float dynamic[];
    record.local_offset[0] = ub_offset(x_local);
    record.local_offset[1] = ub_offset(y_local);
    record.local_offset[2] = ub_offset(z_local);
    record.sizes[0] = sizeof(x_local);
    record.sizes[1] = sizeof(grid);
    grid[3][7] = 1;
    for (int i = 0; i < 3; ++i) {
        __ubuf__ uint8_t bytes[100];
        record.loop_offsets[i == 0 ? 0 : 1] = ub_offset(bytes);
    }
    record.static_offset = static_array_offset();
    record.template_offsets[0] = template_array_offset<float>();
    record.template_offsets[1] = template_array_offset<int32_t>();
    record.dynamic_offset = ub_offset(dynamic);
    record.global_dynamic_offset = ub_offset((__ubuf__ float*)global_dynamic);
    record.ub_bytes = GetRuntimeUBSize();

    const uint32_t first = uint32_t(GetBlockIdx()) * n;
    for (uint32_t i = 0; i < n; ++i) {
        x_local[i] = x[first + i];
        y_local[i] = y[first + i];
    }
    asc_vf_call<add_vf>(x_local, y_local, z_local, n, &record.vf_offset);
    for (uint32_t i = 0; i < n; ++i) z[first + i] = z_local[i];

    for (uint32_t i = 0; i < dynamic_floats; ++i) dynamic[i] = x[i] * 2;
    for (uint32_t i = 0; i < dynamic_floats; ++i) w[GetBlockIdx() * dynamic_floats + i] = global_dynamic[i];
}

__global__ __vector__ void ubuf_misuse(int32_t misuse, uint32_t dynamic_floats) {
    extern __ubuf__ float dynamic[];
    if (misuse == 1) {
        __ubuf__ float small[1024];
        __ubuf__ float huge[256 * 1024 / sizeof(float)];
        small[0] = huge[0] = 0;
    } else if (misuse == 2) {
        dynamic[dynamic_floats] = 1;
    }
}

uint32_t launch_ubuf_add(uint32_t blocks, uint32_t dynamic_bytes, void* stream, const float* x, const float* y,
                         float* z, float* w, uint32_t n, UbufRecord* records) {
    clear_launch_error();
    ubuf_add<<<blocks, dynamic_bytes, stream>>>(const_cast<float*>(x), const_cast<float*>(y), z, w, n,
                                                dynamic_bytes / uint32_t(sizeof(float)), records);
    return launch_result();
}

uint32_t launch_ubuf_misuse(uint32_t blocks, uint32_t dynamic_bytes, void* stream, int32_t misuse) {
    clear_launch_error();
    ubuf_misuse<<<blocks, dynamic_bytes, stream>>>(misuse, dynamic_bytes / uint32_t(sizeof(float)));
    return launch_result();
}
