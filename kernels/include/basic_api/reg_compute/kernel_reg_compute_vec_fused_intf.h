#pragma once
// CANN's kernel_reg_compute_vec_fused_intf.h: the fused instructions (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
