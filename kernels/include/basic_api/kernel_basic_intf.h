#pragma once
// The basic kernel API (CANN's basic_api/kernel_basic_intf.h): tensors, queues and buffers, data
// copies, vector and cube instructions, synchronisation and debugging. The implementation is
// canopy/kernel/ascendc/; kernel_operator.h adds the advanced API.
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/system.h"

#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/pipe.h"
#include "canopy/kernel/ascendc/tbuf_pool.h"

#include "canopy/kernel/ascendc/atomic.h"
#include "canopy/kernel/ascendc/cache.h"
#include "canopy/kernel/ascendc/data_copy.h"

#include "canopy/kernel/ascendc/cast.h"
#include "canopy/kernel/ascendc/reduce.h"
#include "canopy/kernel/ascendc/vector_ops.h"
#include "canopy/kernel/ascendc/compare.h"
#include "canopy/kernel/ascendc/gather.h"
#include "canopy/kernel/ascendc/sort.h"
#include "canopy/kernel/ascendc/transpose.h"

#include "canopy/kernel/ascendc/cube.h"

#include "canopy/kernel/ascendc/debug.h"
#include "canopy/kernel/ascendc/printf.h"
#include "canopy/kernel/ascendc/sync.h"
#include "canopy/kernel/ascendc/group_barrier.h"
#include "canopy/kernel/ascendc/cross_core.h"

// The 950's register-based vector API (AscendC::Reg, asc_vf_call).
#if __NPU_ARCH__ == 3510
#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
#endif

#include "utils/std/tuple.h"
#include "utils/std/type_traits.h"
#include "utils/std/utility.h"
