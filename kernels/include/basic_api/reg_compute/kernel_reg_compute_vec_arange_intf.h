#pragma once
// CANN's kernel_reg_compute_vec_arange_intf.h: Arange (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
