#pragma once
// CANN's kernel_reg_compute_maskreg_intf.h: mask registers: CreateMask, UpdateMask and the mask operations (mask.h).
#include "canopy/kernel/ascendc/reg/mask.h"
