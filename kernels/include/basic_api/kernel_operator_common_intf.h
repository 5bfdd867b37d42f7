#pragma once
// CANN's path for InitSocState.
#include "canopy/kernel/ascendc/system.h"
