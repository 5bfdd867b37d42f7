#pragma once
// The tiling structs of CANN's advanced API as kernels read them (CANN generates this header):
// filled on the host by tiling/tiling_api.h, passed to the kernel, read there.

// Matmul.
#include "adv_api/matmul/kernel_cube_tiling.h"

// Math, activation and utils.
#include "adv_api/activation/softmax_tilingdata.h"

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.
#include "adv_api/pad/pad_tilingdata.h"
#include "adv_api/normalization/normalization_tilingdata.h"
#include "adv_api/transpose/confusion_transpose_tilingdata.h"
#include "adv_api/sort/topk_tilingdata.h"
