#pragma once
// CANN's path for AscendC::DumpTensor.
#include "canopy/kernel/ascendc/debug.h"
