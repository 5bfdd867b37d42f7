#pragma once
// CANN's path for SetAtomicAdd / SetAtomicMax / SetAtomicMin / DisableDmaAtomic.
#include "canopy/kernel/ascendc/atomic.h"
