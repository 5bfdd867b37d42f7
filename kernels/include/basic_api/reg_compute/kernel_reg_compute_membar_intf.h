#pragma once
// CANN's kernel_reg_compute_membar_intf.h: LocalMemBar (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
