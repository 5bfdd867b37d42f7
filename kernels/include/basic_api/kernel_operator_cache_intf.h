#pragma once
// CANN's path for DataCacheCleanAndInvalid and the other cache controls.
#include "canopy/kernel/ascendc/cache.h"
