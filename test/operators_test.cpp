// Golden tests of the reference operators (kernels/ops): each kernel is launched with
// ACLRT_LAUNCH_KERNEL on the shapes of the official samples and its output compared with a plain
// C++ reference. Tolerance rule of the samples: an element is wrong only when both its absolute
// and its relative error exceed the tolerance; a test passes when no element is wrong.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "canopy/kernel/launch.h"
#include "reference_ops.h"
#include "support.h"

using namespace canopy_test;

namespace {

template <typename T>
std::vector<T> random_values(std::size_t count, double low, double high, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> distribution(low, high);
    std::vector<T> values(count);
    for (T& value : values) value = static_cast<T>(static_cast<float>(distribution(engine)));
    return values;
}

struct Comparison {
    std::size_t wrong = 0;
    double max_abs_error = 0;
    double max_rel_error = 0;
};

// The samples' rule: wrong only when |a - e| > atol and |a - e| / |e| > rtol.
template <typename T>
Comparison compare(const std::vector<double>& expected, const std::vector<T>& actual, double rtol, double atol) {
    REQUIRE(expected.size() == actual.size());
    Comparison result;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double value = static_cast<double>(static_cast<float>(actual[i]));
        const double abs_error = std::fabs(value - expected[i]);
        const double rel_error = expected[i] == 0 ? abs_error : abs_error / std::fabs(expected[i]);
        result.max_abs_error = std::max(result.max_abs_error, abs_error);
        result.max_rel_error = std::max(result.max_rel_error, rel_error);
        if (!(abs_error <= atol || rel_error <= rtol)) ++result.wrong;
    }
    return result;
}

#define CHECK_GOLDEN(comparison)                                                                     \
    do {                                                                                             \
        const Comparison canopy_cmp_ = (comparison);                                                 \
        MESSAGE("max abs error " << canopy_cmp_.max_abs_error << ", max rel error "                 \
                                 << canopy_cmp_.max_rel_error << ", wrong elements " << canopy_cmp_.wrong); \
        CHECK(canopy_cmp_.wrong == 0);                                                               \
    } while (false)

// Launch, then synchronize: the launch must be accepted and the stream must finish without failure.
#define RUN_KERNEL(stream, launch_expression)                                                        \
    do {                                                                                             \
        const uint32_t canopy_launch_rc_ = (launch_expression);                                      \
        REQUIRE_MESSAGE(canopy_launch_rc_ == 0u, "launch rejected: " << recent_error());             \
        REQUIRE_ACL(aclrtSynchronizeStream(stream));                                                 \
    } while (false)

// The vector unit's ReduceSum order (A2, count form): adjacent-pair tree inside 256-byte repeats,
// repeat sums added in order; float throughout.
float vector_unit_sum(const float* values, std::size_t count) {
    constexpr std::size_t repeat = 256 / sizeof(float);
    float total = 0;
    for (std::size_t first = 0; first < count; first += repeat) {
        std::vector<float> level(values + first, values + std::min(count, first + repeat));
        while (level.size() > 1) {
            std::vector<float> next;
            for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(level[i] + level[i + 1]);
            if (level.size() % 2 != 0) next.push_back(level.back());
            level = std::move(next);
        }
        total = first == 0 ? level[0] : total + level[0];
    }
    return total;
}

}  // namespace

TEST_CASE("add: x + y on [8, 2048] float over 8 blocks, double-buffered") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t total = 8 * 2048;
    const std::vector<float> x = random_values<float>(total, -10, 10, 1);
    const std::vector<float> y = random_values<float>(total, -10, 10, 2);
    DeviceArray<float> x_device(x), y_device(y), z_device(total);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(add_custom)(8, stream, x_device.get(), y_device.get(), z_device.get(),
                                                       AddTiling{total, 8}));
    std::vector<double> expected(total);
    for (uint32_t i = 0; i < total; ++i) expected[i] = double(x[i]) + double(y[i]);
    CHECK_GOLDEN(compare(expected, z_device.read(), 1e-4, 1e-5));
}

TEST_CASE("add: x + y on [8, 2048] half over 8 blocks, double-buffered") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t total = 8 * 2048;
    const std::vector<half> x = random_values<half>(total, -10, 10, 3);
    const std::vector<half> y = random_values<half>(total, -10, 10, 4);
    DeviceArray<half> x_device(x), y_device(y), z_device(total);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(add_custom_half)(8, stream, x_device.get(), y_device.get(),
                                                            z_device.get(), AddTiling{total, 8}));
    // The golden rounds the exact sum to half, as the vector unit does.
    std::vector<double> expected(total);
    for (uint32_t i = 0; i < total; ++i) expected[i] = float(half(float(x[i]) + float(y[i])));
    CHECK_GOLDEN(compare(expected, z_device.read(), 1e-4, 1e-5));
}

TEST_CASE("add_broadcast: int8 [17, 1022] + [1, 1022] over 8 blocks, unaligned rows through DataCopyPad") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 17, columns = 1022;
    std::mt19937 engine(5);
    std::uniform_int_distribution<int> distribution(-60, 60);
    std::vector<int8_t> x(rows * columns), y(columns);
    for (int8_t& value : x) value = static_cast<int8_t>(distribution(engine));
    for (int8_t& value : y) value = static_cast<int8_t>(distribution(engine));
    DeviceArray<int8_t> x_device(x), y_device(y);
    // z starts as a pattern the kernel must overwrite exactly: no byte past a row may change.
    DeviceArray<int8_t> z_device(std::vector<int8_t>(rows * columns, int8_t(0x5a)));
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(add_broadcast_custom)(8, stream, x_device.get(), y_device.get(),
                                                                 z_device.get(), AddBroadcastTiling{rows, columns}));
    const std::vector<int8_t> z = z_device.read();
    std::size_t wrong = 0;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) wrong += z[r * columns + c] != int8_t(x[r * columns + c] + y[c]);
    }
    CHECK(wrong == 0);
}

TEST_CASE("softmax: [32, 32] float rows, 1 block") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 32, columns = 32;
    const std::vector<float> x = random_values<float>(rows * columns, -5, 5, 6);
    DeviceArray<float> x_device(x), y_device(rows * columns);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(softmax_custom)(1, stream, x_device.get(), y_device.get(),
                                                           RowsTiling{rows, columns}));
    std::vector<double> expected(rows * columns);
    for (uint32_t r = 0; r < rows; ++r) {
        const float* row = &x[r * columns];
        const double row_max = *std::max_element(row, row + columns);
        double sum = 0;
        for (uint32_t c = 0; c < columns; ++c) sum += std::exp(row[c] - row_max);
        for (uint32_t c = 0; c < columns; ++c) expected[r * columns + c] = std::exp(row[c] - row_max) / sum;
    }
    CHECK_GOLDEN(compare(expected, y_device.read(), 1e-4, 1e-4));
}

TEST_CASE("layernorm: B 2, S 32, H 16 float, eps 1e-4, 1 block") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 2 * 32, hidden = 16;
    constexpr float epsilon = 1e-4f;
    const std::vector<float> x = random_values<float>(rows * hidden, -3, 3, 7);
    const std::vector<float> gamma = random_values<float>(hidden, 0.5, 1.5, 8);
    const std::vector<float> beta = random_values<float>(hidden, -0.5, 0.5, 9);
    DeviceArray<float> x_device(x), gamma_device(gamma), beta_device(beta), y_device(rows * hidden);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(layernorm_custom)(1, stream, x_device.get(), gamma_device.get(),
                                                             beta_device.get(), y_device.get(),
                                                             NormTiling{rows, hidden, epsilon}));
    std::vector<double> expected(rows * hidden);
    for (uint32_t r = 0; r < rows; ++r) {
        const float* row = &x[r * hidden];
        double mean = 0, variance = 0;
        for (uint32_t c = 0; c < hidden; ++c) mean += row[c];
        mean /= hidden;
        for (uint32_t c = 0; c < hidden; ++c) variance += (row[c] - mean) * (row[c] - mean);
        variance /= hidden;
        for (uint32_t c = 0; c < hidden; ++c) {
            expected[r * hidden + c] = (row[c] - mean) / std::sqrt(variance + epsilon) * gamma[c] + beta[c];
        }
    }
    CHECK_GOLDEN(compare(expected, y_device.read(), 1e-4, 1e-4));
}

TEST_CASE("rmsnorm: [4, 8, 64] float, gamma [64], eps 5e-5, 1 block") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 4 * 8, hidden = 64;
    constexpr float epsilon = 5e-5f;
    const std::vector<float> x = random_values<float>(rows * hidden, -2, 2, 10);
    const std::vector<float> gamma = random_values<float>(hidden, 0.5, 1.5, 11);
    DeviceArray<float> x_device(x), gamma_device(gamma), y_device(rows * hidden);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(rmsnorm_custom)(1, stream, x_device.get(), gamma_device.get(),
                                                           y_device.get(), NormTiling{rows, hidden, epsilon}));
    std::vector<double> expected(rows * hidden);
    for (uint32_t r = 0; r < rows; ++r) {
        const float* row = &x[r * hidden];
        double mean_square = 0;
        for (uint32_t c = 0; c < hidden; ++c) mean_square += double(row[c]) * row[c];
        mean_square /= hidden;
        for (uint32_t c = 0; c < hidden; ++c) {
            expected[r * hidden + c] = row[c] / std::sqrt(mean_square + epsilon) * gamma[c];
        }
    }
    CHECK_GOLDEN(compare(expected, y_device.read(), 1e-4, 1e-4));
}

TEST_CASE("reduce sum: [3, 32] float rows, 1 block, the vector unit's pairwise order") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 3, columns = 32;
    const std::vector<float> x = random_values<float>(rows * columns, -100, 100, 12);
    DeviceArray<float> x_device(x);
    DeviceArray<float> y_device(std::vector<float>(rows, -1.0f));
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(reduce_sum_custom)(1, stream, x_device.get(), y_device.get(),
                                                              RowsTiling{rows, columns}));
    const std::vector<float> y = y_device.read();
    std::vector<double> exact(rows);
    for (uint32_t r = 0; r < rows; ++r) {
        // The pairwise golden is matched bit for bit; the exact sum within the tolerance.
        CHECK(y[r] == vector_unit_sum(&x[r * columns], columns));
        for (uint32_t c = 0; c < columns; ++c) exact[r] += x[r * columns + c];
    }
    CHECK_GOLDEN(compare(exact, y, 1e-4, 1e-4));
}

TEST_CASE("reduce max: [32, 136] float along axis 0, 1 block") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 32, columns = 136;
    const std::vector<float> x = random_values<float>(rows * columns, -50, 50, 13);
    DeviceArray<float> x_device(x), y_device(columns);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(reduce_max_custom)(1, stream, x_device.get(), y_device.get(),
                                                              RowsTiling{rows, columns}));
    std::vector<double> expected(columns, -INFINITY);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) expected[c] = std::max<double>(expected[c], x[r * columns + c]);
    }
    CHECK_GOLDEN(compare(expected, y_device.read(), 1e-4, 1e-4));
}

TEST_CASE("gelu: [32] float, tanh form, 1 block") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t total = 32;
    const std::vector<float> x = random_values<float>(total, -6, 6, 14);
    DeviceArray<float> x_device(x), y_device(total);
    RUN_KERNEL(stream, ACLRT_LAUNCH_KERNEL(gelu_custom)(1, stream, x_device.get(), y_device.get(), total));
    std::vector<double> expected(total);
    const double k = std::sqrt(2.0 / M_PI);
    for (uint32_t i = 0; i < total; ++i) {
        const double v = x[i];
        expected[i] = 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
    }
    CHECK_GOLDEN(compare(expected, y_device.read(), 1e-4, 1e-4));
}

TEST_CASE("matmul: M 256, K 64, N 256, half in, fp32 accumulate, 2 blocks, exact within fp16 rounding") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t M = 256, K = 64, N = 256;
    const std::vector<half> a = random_values<half>(M * K, -1, 1, 15);
    const std::vector<half> b = random_values<half>(K * N, -1, 1, 16);
    DeviceArray<half> a_device(a), b_device(b), c_device(M * N);
    const MatmulTiling tiling{M, N, K, /*singleCoreM*/ 128, /*singleCoreN*/ 256, /*baseM*/ 128, /*baseN*/ 256,
                              /*baseK*/ 64};
    RUN_KERNEL(stream,
               ACLRT_LAUNCH_KERNEL(matmul_custom)(2, stream, a_device.get(), b_device.get(), c_device.get(), tiling));
    const std::vector<half> c = c_device.read();
    // The kernel rounds its fp32 sum once to half. Against the exact sum that allows half a half-ulp
    // of rounding plus the fp32 accumulation error, bounded by K * 2^-24 * sum |a_k b_k|; an element
    // is wrong when it is further away than one half-ulp plus that bound.
    std::size_t wrong = 0;
    double worst = 0;  // largest error as a fraction of the allowance
    for (uint32_t m = 0; m < M; ++m) {
        for (uint32_t n = 0; n < N; ++n) {
            double exact = 0, magnitude_sum = 0;
            for (uint32_t k = 0; k < K; ++k) {
                const double product = double(float(a[m * K + k])) * double(float(b[k * N + n]));
                exact += product;
                magnitude_sum += std::fabs(product);
            }
            const double magnitude = std::fabs(double(float(half(static_cast<float>(exact)))));
            // One unit in the last place of a half of that magnitude (2^-24 for subnormals and zero).
            const double ulp = magnitude < std::ldexp(1.0, -14) ? std::ldexp(1.0, -24)
                                                                 : std::ldexp(1.0, std::ilogb(magnitude) - 10);
            const double allowance = ulp + K * std::ldexp(1.0, -24) * magnitude_sum;
            const double error = std::fabs(double(float(c[m * N + n])) - exact);
            worst = std::max(worst, error / allowance);
            wrong += error > allowance;
        }
    }
    MESSAGE("largest error / (1 half ulp + fp32 accumulation bound): " << worst);
    CHECK(wrong == 0);
}
