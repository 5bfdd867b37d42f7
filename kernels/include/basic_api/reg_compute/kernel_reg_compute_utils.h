#pragma once
// CANN's kernel_reg_compute_utils.h: the register-based API's modes and configurations (modes.h).
#include "canopy/kernel/ascendc/reg/modes.h"
