#pragma once
// CANN's path for assert / ascendc_assert in kernels.
#include "canopy/kernel/ascendc/debug.h"
