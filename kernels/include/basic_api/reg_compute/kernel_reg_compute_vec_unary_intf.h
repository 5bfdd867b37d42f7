#pragma once
// CANN's kernel_reg_compute_vec_unary_intf.h: the unary instructions (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
