#pragma once
// CANN's path for AscendC::printf / PRINTF.
#include "canopy/kernel/ascendc/printf.h"
