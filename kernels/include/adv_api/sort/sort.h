#pragma once
// Sort (CANN adv_api/sort/sort.h). On the A2 sorting is Concat / Sort<T, isFullSort> / Extract on
// (score, index) pairs (canopy/kernel/ascendc/proposal.h); the radix and merge Sort with SortConfig
// exist on later architectures only, whose configuration types are declared here for the tiling.
#include "canopy/kernel/ascendc/proposal.h"

namespace AscendC {

#ifndef CANOPY_SORT_CONFIG_DEFINED
#define CANOPY_SORT_CONFIG_DEFINED
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};
#endif

}  // namespace AscendC
