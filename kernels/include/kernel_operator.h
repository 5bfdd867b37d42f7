#pragma once
// kernel_operator.h: the header Ascend C kernel sources include. Canopy's implementation of the
// Ascend C kernel API (namespace AscendC), whose blocks run block-parallel on a CPU, each with a
// modelled Unified Buffer and cube memories (L1, L0A, L0B, L0C). As CANN's, it is the basic API
// (basic_api/kernel_basic_intf.h) and the advanced API (adv_api/kernel_api.h) together, with what
// bisheng gives kernel sources without a header.
#include "basic_api/kernel_basic_intf.h"
#include "adv_api/kernel_api.h"

#include "canopy/kernel/compiler_builtins.h"

// Last: asm(...) in the kernel source itself raises the AI Core fault (inline_asm.h).
#include "canopy/kernel/inline_asm.h"
