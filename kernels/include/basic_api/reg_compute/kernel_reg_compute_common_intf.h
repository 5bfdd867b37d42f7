#pragma once
// CANN's kernel_reg_compute_common_intf.h: MaskReg, UnalignReg and AddrReg (registers.h).
#include "canopy/kernel/ascendc/reg/registers.h"
