#pragma once
// CANN's path for DataCopy / DataCopyPad.
#include "canopy/kernel/ascendc/data_copy.h"
