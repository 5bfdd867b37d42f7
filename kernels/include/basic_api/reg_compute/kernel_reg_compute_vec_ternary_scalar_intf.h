#pragma once
// CANN's kernel_reg_compute_vec_ternary_scalar_intf.h: Axpy (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
