#pragma once
// CANN's kernel_reg_compute_datacopy_intf.h: loads and stores between the UB and the registers (data_copy.h).
#include "canopy/kernel/ascendc/reg/data_copy.h"
