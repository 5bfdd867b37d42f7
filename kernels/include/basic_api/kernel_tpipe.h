#pragma once
// CANN's path for TPipe, TQue, TBuf.
#include "canopy/kernel/ascendc/pipe.h"
