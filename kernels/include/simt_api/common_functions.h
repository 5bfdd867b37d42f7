#pragma once
// CANN's simt_api/common_functions.h: asc_vf_call for __simt_vf__ functions (a SIMD kernel on the 950
// starting SIMT threads on its vector core), printf and asc_assert from threads.
#include <cstdio>
#include <utility>

#include "canopy/kernel/simt/vf_call.h"
#include "simt_api/device_types.h"
#include "utils/debug/asc_assert.h"
