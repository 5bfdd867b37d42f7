#pragma once
// The little of kernel_operator.h that the launch tests' kernels use, so that they test the launcher
// alone: the Ascend C qualifiers (meaningless on a CPU), GM_ADDR, and the block globals block_idx /
// block_num (from canopy/kernel/block.h, which the kernel compiler force-includes with launch.h).
#include <cstdint>

#include "canopy/kernel/launch.h"

#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
