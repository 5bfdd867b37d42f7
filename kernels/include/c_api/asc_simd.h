#pragma once
// CANN's C API for Ascend C kernels (asc-devkit include/c_api/asc_simd.h): asc_* functions on raw
// UB and GM addresses, over Canopy's basic API (canopy/kernel/c_api/memory_api.h) and, on the
// Ascend 950 (__NPU_ARCH__ 3510), the vector_* register types and the register instructions of
// __simd_vf__ functions over AscendC::Reg (canopy/kernel/c_api/reg_api.h).
#include "kernel_operator.h"
#include "canopy/kernel/c_api/memory_api.h"

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

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#include "canopy/kernel/c_api/reg_api.h"
#endif
