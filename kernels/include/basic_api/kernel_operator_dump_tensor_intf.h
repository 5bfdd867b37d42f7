#pragma once
// CANN's path for DumpTensor.
#include "canopy/kernel/ascendc/debug.h"
