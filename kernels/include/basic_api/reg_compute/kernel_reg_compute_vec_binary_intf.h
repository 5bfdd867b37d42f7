#pragma once
// CANN's kernel_reg_compute_vec_binary_intf.h: the binary arithmetic and logic instructions (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
