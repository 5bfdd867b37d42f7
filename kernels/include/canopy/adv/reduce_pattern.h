#pragma once
// ReducePattern (CANN's normalization/normalize_utils.h), shared by the host tiling functions of
// the reductions and Normalize.
#include <cstdint>

namespace AscendC {

#ifndef CANOPY_REDUCE_PATTERN_DEFINED
#define CANOPY_REDUCE_PATTERN_DEFINED
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
#endif

}  // namespace AscendC
