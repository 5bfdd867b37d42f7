#pragma once
// CANN's path for LocalTensor and GlobalTensor.
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
