#pragma once
// Host-side support shared by the tiling functions of the normalization, quantization, reduce,
// sort, index, filter, select, pad and transpose APIs (tiling/tiling_api.h):
//  - the field lists that define each tiling struct once, as the kernel's plain struct
//    (kernel_tiling/kernel_tiling.h) and as the host's optiling class.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "adv_api/utils/types.h"
#include "canopy/adv/tiling_fields.h"
#include "canopy/kernel/ascendc/securec.h"
#include "register/tilingdata_base.h"
