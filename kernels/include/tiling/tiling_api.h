#pragma once
// CANN's host tiling API: the host computes a tiling for the shapes at hand and passes it to the
// kernel, which reads it through the structs of kernel_tiling/kernel_tiling.h.

// Matmul tiling and the platform.

// Math, activation and utils.
#include "canopy/kernel/ascendc/securec.h"
#include "adv_api/math/acosh_tiling.h"
#include "adv_api/math/axpy_tiling.h"
#include "adv_api/math/ceil_tiling.h"
#include "adv_api/math/clamp_tiling.h"
#include "adv_api/math/cumsum_tiling.h"
#include "adv_api/math/erf_tiling.h"
#include "adv_api/math/exp_tiling.h"
#include "adv_api/math/fmod_tiling.h"
#include "adv_api/math/frac_tiling.h"
#include "adv_api/math/log_tiling.h"
#include "adv_api/math/power_tiling.h"
#include "adv_api/math/trunc_tiling.h"
#include "adv_api/math/xor_tiling.h"
#include "adv_api/activation/gelu_tiling.h"
#include "adv_api/activation/geglu_tiling.h"
#include "adv_api/activation/sigmoid_tiling.h"
#include "adv_api/activation/silu_tiling.h"
#include "adv_api/activation/swish_tiling.h"
#include "adv_api/activation/swiglu_tiling.h"
#include "adv_api/activation/softmax_tiling.h"
#include "adv_api/activation/logsoftmax_tiling.h"

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
