#pragma once
// The host tiling functions' argument checks (CANN's ASCENDC_HOST_ASSERT): a failed check prints an
// error naming the function and leaves the outputs as they are.
#include <cstdio>

namespace canopy::adv {

inline bool host_check(bool condition, const char* function, const char* message) {
    if (!condition) std::fprintf(stderr, "[ERROR] %s: %s\n", function, message);
    return condition;
}

}  // namespace canopy::adv
