#pragma once
// CANN's path for the binary vector instructions (Add, Mul, ..., MulAddDst).
#include "canopy/kernel/ascendc/vector_ops.h"
