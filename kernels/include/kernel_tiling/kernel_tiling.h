#pragma once
// The tiling structs of CANN's advanced API as kernels read them (CANN generates this header):
// filled on the host by tiling/tiling_api.h, passed to the kernel, read there.

// Matmul.
#include "adv_api/matmul/kernel_cube_tiling.h"

// Math, activation and utils.

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.

