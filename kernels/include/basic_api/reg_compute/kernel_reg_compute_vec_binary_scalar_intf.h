#pragma once
// CANN's kernel_reg_compute_vec_binary_scalar_intf.h: the binary instructions with a scalar (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
