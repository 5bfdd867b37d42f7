#pragma once
// The Matmul's tiling as the kernel reads it (CANN generates this struct into
// kernel_tiling/kernel_tiling.h): AscendC::tiling::TCubeTiling, also reachable as ::TCubeTiling, the
// spelling the samples use. Filled on the host by matmul_tiling::*::GetTiling.
#include <cstdint>

#include "adv_api/matmul/cube_tiling_fields.h"

namespace AscendC {
namespace tiling {

struct TCubeTiling {
#define CANOPY_KERNEL_TILING_FIELD(name) int32_t name = 0;
    CANOPY_TCUBE_TILING_FIELDS(CANOPY_KERNEL_TILING_FIELD)
#undef CANOPY_KERNEL_TILING_FIELD
};
static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t), "TCubeTiling is CANN's 50 int32_t fields");

}  // namespace tiling
}  // namespace AscendC

using TCubeTiling = AscendC::tiling::TCubeTiling;
