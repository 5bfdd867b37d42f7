#pragma once
// CANN's kernel_reg_compute_addrreg_intf.h: CreateAddrReg (data_copy.h).
#include "canopy/kernel/ascendc/reg/data_copy.h"
