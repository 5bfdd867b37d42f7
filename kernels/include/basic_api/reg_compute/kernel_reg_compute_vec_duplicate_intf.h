#pragma once
// CANN's kernel_reg_compute_vec_duplicate_intf.h: Duplicate, Interleave and DeInterleave (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
