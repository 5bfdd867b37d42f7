#pragma once
// The row statistics the normalizations share, computed in double over the first `n` elements of
// a row and rounded to float as the vector unit holds them.
#include <cmath>
#include <cstdint>

namespace canopy::adv_norm {

template <typename T>
inline void row_mean_variance(const T* row, uint32_t n, float& mean, float& variance) {
    double sum = 0.0;
    for (uint32_t i = 0; i < n; ++i) sum += static_cast<double>(static_cast<float>(row[i]));
    const double m = n ? sum / n : 0.0;
    double squares = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(static_cast<float>(row[i])) - m;
        squares += d * d;
    }
    mean = static_cast<float>(m);
    variance = static_cast<float>(n ? squares / n : 0.0);
}

}  // namespace canopy::adv_norm
