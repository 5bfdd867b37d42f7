#pragma once
// Kernels that capture_test records into captured graphs, with the host functions that launch them
// with <<<>>> (capture_kernels.cpp, compiled by canopy_add_kernels).
#include <cstdint>

#include "kernel_shim.h"

extern "C" {
// y[i] += a * x[i] for i in [0, n), split across blocks.
__global__ __aicore__ void capture_axpy(GM_ADDR x, GM_ADDR y, float a, uint32_t n);
// Fails the launch with ACL_ERROR_RT_AICORE_EXCEPTION when *trigger is not 0.
__global__ __aicore__ void capture_fault_if(GM_ADDR trigger);
}

uint32_t launch_capture_axpy(uint32_t numBlocks, void* stream, const float* x, float* y, float a, uint32_t n);
uint32_t launch_capture_fault_if(void* stream, const uint32_t* trigger);
