#pragma once
// CANN's advanced kernel API (its include/adv_api layout: one header per operator under its
// category), included by kernel_operator.h as in CANN. The Matmul is not here: kernels include
// lib/matmul_intf.h for it.

// Math, activation and utils.

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.
#include "canopy/kernel/ascendc/kernel_assert.h"
#include "canopy/kernel/ascendc/stack_buffer.h"
#include "canopy/kernel/ascendc/ascendc_utils.h"
#include "adv_api/index/arithprogression.h"
#include "adv_api/reduce/sum.h"
#include "adv_api/quantization/ascend_quant.h"
#include "adv_api/quantization/ascend_dequant.h"
#include "adv_api/quantization/ascend_antiquant.h"
#include "adv_api/select/selectwithbytesmask.h"
#include "adv_api/filter/dropout.h"
#include "adv_api/pad/broadcast.h"
#include "adv_api/utils/init_global_memory.h"
#include "adv_api/pad/pad.h"
#include "adv_api/reduce/reduce.h"
#include "adv_api/normalization/rmsnorm.h"
#include "adv_api/normalization/deepnorm.h"
#include "adv_api/normalization/layernorm.h"
#include "adv_api/normalization/layernormgrad.h"
#include "adv_api/normalization/layernormgradbeta.h"
#include "adv_api/normalization/normalize.h"
#include "adv_api/normalization/welfordfinalize.h"
#include "adv_api/sort/sort.h"
#include "adv_api/transpose/transdata.h"
#include "adv_api/transpose/confusion_transpose.h"
#include "adv_api/sort/topk.h"
