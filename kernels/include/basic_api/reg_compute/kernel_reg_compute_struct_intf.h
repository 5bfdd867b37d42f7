#pragma once
// CANN's kernel_reg_compute_struct_intf.h: RegTensor and its RegTrait (registers.h).
#include "canopy/kernel/ascendc/reg/registers.h"
