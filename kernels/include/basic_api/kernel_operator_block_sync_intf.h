#pragma once
// CANN's path for SetFlag / WaitFlag, PipeBarrier, TQueSync, DataSyncBarrier, SyncAll.
#include "canopy/kernel/ascendc/sync.h"
