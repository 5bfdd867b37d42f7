#pragma once
// CANN's kernel_reg_compute_vec_reduce_intf.h: the reductions (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
