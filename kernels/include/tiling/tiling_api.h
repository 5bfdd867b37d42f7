#pragma once
// CANN's host tiling API: the host computes a tiling for the shapes at hand and passes it to the
// kernel, which reads it through the structs of kernel_tiling/kernel_tiling.h.

// Matmul tiling and the platform.
#include "tiling/platform/platform_ascendc.h"
#include "adv_api/matmul/matmul_tiling.h"
#include "adv_api/matmul/bmm_tiling.h"

// Math, activation and utils.

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.

