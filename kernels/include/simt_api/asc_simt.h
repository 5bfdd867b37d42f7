#pragma once
// CANN's simt_api/asc_simt.h: the SIMT API of the Ascend 950 (threads of a block on a vector core).
#include "simt_api/common_functions.h"
#include "simt_api/device_functions.h"
#include "simt_api/math_functions.h"
#include "simt_api/vector_functions.h"
