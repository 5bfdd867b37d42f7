#pragma once
// Acosh (CANN's adv_api/math/acosh.h): dst = ln(x + sqrt(x^2 - 1)), NaN below 1; half and float.
#include <cmath>

#include "adv_api/math/acosh_tiling.h"
#include "adv_api/utils/adv_common.h"

namespace AscendC {

CANOPY_ADV_UNARY(Acosh, "GetAcoshMaxMinTmpSize", canopy::kernel::adv::sizes::acosh_min(sizeof(T)),
                 canopy::kernel::adv::each([](auto v) { return std::acosh(v); }))

}  // namespace AscendC
