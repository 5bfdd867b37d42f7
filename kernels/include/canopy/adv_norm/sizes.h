#pragma once
// The temporary-buffer sizes of the normalization, quantization, reduce, sort, index, filter,
// select, pad and transpose APIs: one rule per API, used by the host tiling functions (what they
// return) and by the kernel side (the minimum a call checks its buffer against). CANN's numbers.
#include <algorithm>
#include <cstdint>

namespace canopy::adv_norm::sizes {

inline constexpr uint32_t kBlock = 32;
inline constexpr uint32_t kRepeat = 256;

inline constexpr uint32_t round_up(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }
inline constexpr uint32_t ceil_div(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit; }

// Sum over rows of n elements: one partial per 256-byte repeat, rounded up to 32 bytes.
inline constexpr uint32_t sum(uint32_t n, uint32_t type_size) {
    const uint32_t per_block = kBlock / type_size;
    const uint32_t per_repeat = kRepeat / type_size;
    return round_up(ceil_div(n, per_repeat), per_block) * type_size;
}

}  // namespace canopy::adv_norm::sizes
