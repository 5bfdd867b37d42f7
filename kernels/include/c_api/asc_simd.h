#pragma once
// CANN's C API for Ascend C kernels (asc-devkit include/c_api/asc_simd.h): asc_* functions on raw
// UB and GM addresses, over Canopy's basic API (canopy/kernel/c_api/memory_api.h) and, on the
// Ascend 950 (__NPU_ARCH__ 3510), the vector_* register types and the register instructions of
// __simd_vf__ functions over AscendC::Reg (canopy/kernel/c_api/reg_api.h).
#include "kernel_operator.h"
#include "canopy/kernel/c_api/memory_api.h"

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#include "canopy/kernel/c_api/reg_api.h"
#endif
