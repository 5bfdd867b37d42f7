#pragma once
// optiling::TCubeTiling: the host form of the Matmul's tiling (register/tilingdata_base.h), the
// same 200 bytes as the kernel's AscendC::tiling::TCubeTiling.
#include <cstdint>

#include "adv_api/matmul/cube_tiling_fields.h"
#include "adv_api/matmul/kernel_cube_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {

BEGIN_TILING_DATA_DEF(TCubeTiling)
#define CANOPY_HOST_TILING_FIELD(name) TILING_DATA_FIELD_DEF(int32_t, name);
CANOPY_TCUBE_TILING_FIELDS(CANOPY_HOST_TILING_FIELD)
#undef CANOPY_HOST_TILING_FIELD
END_TILING_DATA_DEF;

static_assert(sizeof(TCubeTiling) == sizeof(AscendC::tiling::TCubeTiling),
              "the host and kernel forms of TCubeTiling have the same bytes");

}  // namespace optiling
