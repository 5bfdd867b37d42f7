#pragma once
// CANN's kernel_reg_compute_vec_cmpsel_intf.h: Compare, Compares and Select (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
