#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace canopy_bench {

std::uint16_t float_to_half(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const std::uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude >= 0x7f800000u) {  // inf or NaN
        return static_cast<std::uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
    }
    if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds past 65504
    if (magnitude < 0x38800000u) {  // a half subnormal (or zero): round the value scaled by 2^24
        float scaled;
        const std::uint32_t positive = magnitude;
        std::memcpy(&scaled, &positive, sizeof scaled);
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled * 16777216.0f)));
    }
    const std::uint32_t rebased = magnitude - (112u << 23);  // exponent bias 127 -> 15
    const std::uint32_t lower = rebased & 0x1fffu;
    std::uint32_t result = rebased >> 13;
    if (lower > 0x1000u || (lower == 0x1000u && (result & 1u))) ++result;
    return static_cast<std::uint16_t>(sign | result);
}

float half_to_float(std::uint16_t value) {
    const std::uint32_t sign = static_cast<std::uint32_t>(value & 0x8000u) << 16;
    const std::uint32_t exponent = (value >> 10) & 0x1fu;
    const std::uint32_t mantissa = value & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) / 16777216.0f;
        std::memcpy(&bits, &magnitude, sizeof bits);
        bits |= sign;
    } else {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

namespace {

// splitmix64: cheap, and every seed gives an independent-looking sequence.
struct Generator {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // [-1, 1)
    float uniform() { return static_cast<float>(static_cast<double>(next() >> 40) / double(1ull << 23) - 1.0); }
};

void store(const Layout& layout, std::uint8_t* out, std::size_t i, float value) {
    if (layout.element == Element::f32) {
        std::memcpy(out + i * 4, &value, 4);
    } else {
        const std::uint16_t half = float_to_half(value);
        std::memcpy(out + i * 2, &half, 2);
    }
}

float load(const Layout& layout, const std::uint8_t* in, std::size_t i) {
    if (layout.element == Element::f32) {
        float value;
        std::memcpy(&value, in + i * 4, 4);
        return value;
    }
    std::uint16_t half;
    std::memcpy(&half, in + i * 2, 2);
    return half_to_float(half);
}

// The value as the device stores it between operators.
float stored(const Layout& layout, double value) {
    const float single = static_cast<float>(value);
    return layout.element == Element::f32 ? single : half_to_float(float_to_half(single));
}

void reference_add(const Layout& layout, const Resident& resident, std::vector<float>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        // The vector unit adds in the element type: a float sum is rounded once, a half sum too.
        values[i] = stored(layout, static_cast<float>(values[i] + load(layout, resident.add_other.data(), i)));
    }
}

void reference_softmax(const Layout& layout, std::vector<float>& values) {
    for (std::size_t row = 0; row < values.size() / row_columns; ++row) {
        float* x = values.data() + row * row_columns;
        const float max = *std::max_element(x, x + row_columns);
        double sum = 0;
        double e[row_columns];
        for (std::uint32_t c = 0; c < row_columns; ++c) sum += e[c] = std::exp(double(x[c]) - max);
        for (std::uint32_t c = 0; c < row_columns; ++c) x[c] = stored(layout, e[c] / sum);
    }
}

void reference_layernorm(const Layout& layout, const Resident& resident, std::vector<float>& values) {
    for (std::size_t row = 0; row < values.size() / row_columns; ++row) {
        float* x = values.data() + row * row_columns;
        double mean = 0;
        for (std::uint32_t c = 0; c < row_columns; ++c) mean += x[c];
        mean /= row_columns;
        double variance = 0;
        for (std::uint32_t c = 0; c < row_columns; ++c) variance += (x[c] - mean) * (x[c] - mean);
        variance /= row_columns;
        const double rstd = 1.0 / std::sqrt(variance + layernorm_epsilon);
        for (std::uint32_t c = 0; c < row_columns; ++c) {
            x[c] = stored(layout, (x[c] - mean) * rstd * resident.gamma[c] + resident.beta[c]);
        }
    }
}

void reference_matmul(const Layout& layout, const Resident& resident, std::vector<float>& values) {
    const MatmulPlan& plan = layout.matmul;
    std::vector<float> weight(std::size_t(plan.k) * plan.n);
    for (std::size_t i = 0; i < weight.size(); ++i) weight[i] = load(layout, resident.weight.data(), i);
    std::vector<double> row(plan.n);
    std::vector<float> result(values.size());
    for (std::uint32_t m = 0; m < plan.m; ++m) {
        std::fill(row.begin(), row.end(), 0.0);
        for (std::uint32_t k = 0; k < plan.k; ++k) {
            const double a = values[std::size_t(m) * plan.k + k];
            const float* w = weight.data() + std::size_t(k) * plan.n;
            for (std::uint32_t n = 0; n < plan.n; ++n) row[n] += a * w[n];
        }
        for (std::uint32_t n = 0; n < plan.n; ++n) result[std::size_t(m) * plan.n + n] = stored(layout, row[n]);
    }
    values.swap(result);
}

}  // namespace

Resident make_resident(const Layout& layout) {
    Resident resident;
    Generator generator{0x5eed};
    resident.add_other.resize(layout.elements * layout.element_bytes);
    for (std::size_t i = 0; i < layout.elements; ++i) store(layout, resident.add_other.data(), i, 0.5f * generator.uniform());
    resident.gamma.resize(row_columns);
    resident.beta.resize(row_columns);
    for (std::uint32_t c = 0; c < row_columns; ++c) {
        resident.gamma[c] = 1.0f + 0.5f * generator.uniform();
        resident.beta[c] = 0.5f * generator.uniform();
    }
    // Unit variance of the weight's columns keeps the product of unit-scale rows at unit scale, so
    // chained matmuls neither overflow nor vanish in half.
    resident.weight.resize(std::size_t(matmul_k) * matmul_n * 2);
    const float scale = std::sqrt(3.0f / matmul_k);
    Layout half = layout;
    half.element = Element::f16;
    for (std::size_t i = 0; i < std::size_t(matmul_k) * matmul_n; ++i) {
        store(half, resident.weight.data(), i, scale * generator.uniform());
    }
    return resident;
}

void fill_input(const Layout& layout, std::uint64_t index, std::uint8_t* out) {
    Generator generator{index * 0x100000001b3ull + 1};
    for (std::size_t i = 0; i < layout.elements; ++i) store(layout, out, i, 2.0f * generator.uniform());
}

void reference_output(const Options& options, const Layout& layout, const Resident& resident,
                      const std::uint8_t* input, float* expected) {
    std::vector<float> values(layout.elements);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = load(layout, input, i);
    for (Kernel kernel : options.kernels) {
        switch (kernel) {
            case Kernel::add: reference_add(layout, resident, values); break;
            case Kernel::softmax: reference_softmax(layout, values); break;
            case Kernel::layernorm: reference_layernorm(layout, resident, values); break;
            case Kernel::matmul: reference_matmul(layout, resident, values); break;
        }
    }
    std::copy(values.begin(), values.end(), expected);
}

double tolerance(const Options& options, const Layout& layout) {
    if (layout.element == Element::f16) return 1e-2;  // a half ulp at 1 is 1e-3; chains carry a few
    for (Kernel kernel : options.kernels) {
        if (kernel != Kernel::add) return 1e-4;  // exp, reductions in the vector unit's order, rsqrt
    }
    return 1e-6;
}

ChunkCheck check_chunk(const Layout& layout, const std::uint8_t* output, const float* expected, double tolerance) {
    ChunkCheck check;
    for (std::size_t i = 0; i < layout.elements; ++i) {
        const float got = load(layout, output, i);
        const double error = std::fabs(double(got) - double(expected[i]));
        const bool right = std::isfinite(got) ? (error <= tolerance || error <= tolerance * std::fabs(expected[i]))
                                              : !std::isfinite(expected[i]);
        if (!right) {
            if (check.wrong++ == 0) {
                check.first_wrong = i;
                check.got = got;
                check.expected = expected[i];
            }
        }
    }
    return check;
}

}  // namespace canopy_bench
