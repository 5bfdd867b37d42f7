#pragma once
// CANN's kernel_reg_compute_pack_intf.h: Pack and UnPack (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
