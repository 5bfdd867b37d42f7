#pragma once
// CANN's advanced kernel API (its include/adv_api layout: one header per operator under its
// category), included by kernel_operator.h as in CANN. The Matmul is not here: kernels include
// lib/matmul_intf.h for it.

// Math, activation and utils.
#include "adv_api/math/acosh.h"
#include "adv_api/math/axpy.h"
#include "adv_api/math/ceil.h"
#include "adv_api/math/clamp.h"
#include "adv_api/math/cumsum.h"
#include "adv_api/math/erf.h"
#include "adv_api/math/exp.h"
#include "adv_api/math/fmod.h"
#include "adv_api/math/frac.h"
#include "adv_api/math/log.h"
#include "adv_api/math/power.h"
#include "adv_api/math/xor.h"
#include "adv_api/activation/gelu.h"
#include "adv_api/activation/geglu.h"
#include "adv_api/activation/sigmoid.h"
#include "adv_api/activation/silu.h"
#include "adv_api/activation/swish.h"
#include "adv_api/activation/swiglu.h"
#include "adv_api/activation/softmax.h"
#include "adv_api/activation/simplesoftmax.h"
#include "adv_api/activation/softmaxflashv2.h"
#include "adv_api/activation/logsoftmax.h"
#include "adv_api/activation/softmaxgrad.h"
#include "adv_api/activation/softmaxflashv3.h"
#include "adv_api/utils/std/type_traits.h"

// Normalization, quantization, reduce, sort, index, filter, select, pad and transpose.

