#pragma once
// CANN's host tiling API: the host computes a tiling for the shapes at hand and passes it to the
// kernel, which reads it through the structs of kernel_tiling/kernel_tiling.h.

// Matmul tiling and the platform.

// Math, activation and utils.

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.
#include "adv_api/index/arithprogression_tiling.h"
#include "adv_api/reduce/sum_tiling.h"
#include "adv_api/quantization/ascend_quant_tiling.h"
#include "adv_api/quantization/ascend_dequant_tiling.h"
#include "adv_api/quantization/ascend_antiquant_tiling.h"
#include "adv_api/select/selectwithbytesmask_tiling.h"
#include "adv_api/filter/dropout_tiling.h"
#include "adv_api/pad/pad_tiling.h"
#include "adv_api/reduce/reduce_tiling.h"
#include "adv_api/normalization/rmsnorm_tiling.h"
#include "adv_api/normalization/deepnorm_tiling.h"
#include "adv_api/normalization/layernorm_tiling.h"
#include "adv_api/sort/sort_tiling_intf.h"
#include "adv_api/transpose/confusion_transpose_tiling.h"
#include "adv_api/sort/topk_tiling.h"
#include "adv_api/pad/broadcast_tiling.h"
