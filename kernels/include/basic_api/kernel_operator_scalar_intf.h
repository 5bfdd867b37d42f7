#pragma once
// CANN's path for ReadGmByPassDCache / WriteGmByPassDCache.
#include "canopy/kernel/ascendc/cache.h"
