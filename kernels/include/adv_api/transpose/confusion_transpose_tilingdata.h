#pragma once
// The tiling struct of Transpose / ConfusionTranspose (CANN
// adv_api/transpose/confusion_transpose_tilingdata.h), as the kernel reads it.
#include <cstdint>

#include "canopy/adv/tiling_fields.h"

#define CANOPY_CONFUSION_TRANSPOSE_TILING_FIELDS(F)                                                        \
    F(uint32_t, param0) F(uint32_t, param1) F(uint32_t, param2) F(uint32_t, param3) F(uint32_t, param4)  \
    F(uint32_t, param5) F(uint32_t, param6) F(uint32_t, param7) F(uint32_t, param8) F(uint32_t, param9)  \
    F(uint32_t, param10) F(uint32_t, param11) F(uint32_t, param12) F(uint32_t, param13)                  \
    F(uint32_t, param14) F(uint32_t, param15) F(uint32_t, param16) F(uint32_t, param17)

CANOPY_DECLARE_KERNEL_TILING(ConfusionTransposeTiling, CANOPY_CONFUSION_TRANSPOSE_TILING_FIELDS)
