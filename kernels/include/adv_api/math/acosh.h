#pragma once
// Acosh (CANN's adv_api/math/acosh.h): dst = ln(x + sqrt(x^2 - 1)), NaN below 1; half and float.
#include <cmath>

#include "adv_api/math/acosh_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

CANOPY_ADV_UNARY(Acosh, "GetAcoshMaxMinTmpSize", canopy::adv::sizes::acosh_min(sizeof(T)),
                 canopy::adv::each([](auto v) { return std::acosh(v); }))

}  // namespace AscendC
