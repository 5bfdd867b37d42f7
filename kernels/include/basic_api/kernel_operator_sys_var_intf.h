#pragma once
// CANN's path for GetBlockIdx, GetSubBlockIdx, GetTaskRatio, GetSystemCycle and the UB size queries.
#include "canopy/kernel/ascendc/system.h"
