#pragma once
// CANN's kernel_reg_compute_copy_intf.h: Move between registers (arithmetic.h).
#include "canopy/kernel/ascendc/reg/arithmetic.h"
