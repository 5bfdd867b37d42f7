#pragma once
// CANN's path for the cube instructions: LoadData, Mmad and its modes (SetHF32Mode, SetMMLayoutTransform),
// the img2col registers (SetFmatrix, Load3DSetFMatrixCal).
#include "canopy/kernel/ascendc/cube.h"
