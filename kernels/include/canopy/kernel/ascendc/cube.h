#pragma once
// The cube path of an A2 core, so that cube kernels written for the NPU run unchanged: the MTE1
// loads from L1 into L0A / L0B (load_data.h), Mmad on the M pipe (mmad.h), the FIX pipe's moves out
// of L0C (fixpipe.h), Fill and the copies into the bias table and fixpipe buffer (cube_copy.h). The
// parameter structs, fractal layouts and cube registers are in cube_types.h.
#include "canopy/kernel/ascendc/cube_copy.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/fixpipe.h"
#include "canopy/kernel/ascendc/load_data.h"
#include "canopy/kernel/ascendc/mmad.h"
