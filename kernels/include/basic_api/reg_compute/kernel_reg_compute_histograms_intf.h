#pragma once
// CANN's kernel_reg_compute_histograms_intf.h: Histograms (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
