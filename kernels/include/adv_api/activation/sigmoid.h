#pragma once
// Sigmoid (CANN's adv_api/activation/sigmoid.h): 1 / (1 + e^-x); half and float computed in float.
#include "adv_api/activation/sigmoid_tiling.h"
#include "canopy/adv/adv_common.h"

namespace AscendC {

CANOPY_ADV_UNARY(Sigmoid, "GetSigmoidMaxMinTmpSize", canopy::adv::sizes::sigmoid_min(), [](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    return S(1) / (S(1) + (-x).exp());
})

}  // namespace AscendC
