#pragma once
// Frac (CANN's adv_api/math/frac.h): x - trunc(x), the fractional part with the sign of x; half and
// float.
#include <cmath>

#include "adv_api/math/frac_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

CANOPY_ADV_UNARY(Frac, "GetFracMaxMinTmpSize",
                 canopy::adv::live_nodes::min_bytes(canopy::adv::live_nodes::frac, sizeof(T)),
                 [](const auto& x) { return x - x.unaryExpr([](auto v) { return std::trunc(v); }); })

}  // namespace AscendC
