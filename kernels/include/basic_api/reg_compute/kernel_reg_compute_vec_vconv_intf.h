#pragma once
// CANN's kernel_reg_compute_vec_vconv_intf.h: Cast and Truncate (convert.h).
#include "canopy/kernel/ascendc/reg/convert.h"
