#pragma once
// CANN's kernel_reg_compute_gather_mask_intf.h: Squeeze, Unsqueeze, ClearSpr and the in-register Gather (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
