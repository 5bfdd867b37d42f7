// Float overflow: the device's float mode (IEEE inf / NaN by default; saturation for the streams
// created after aclrtSetDeviceSatMode asks for it), the stream's overflow switch, and the device's
// overflow status, set by kernels that raise IEEE overflow, invalid or divide-by-zero flags on a
// stream with the switch on.
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime_kernels.h"
#include "vector_support.h"

using namespace canopy_test;

namespace {
uint32_t read_status(aclrtStream stream, void* status) {
    REQUIRE_ACL(aclrtGetOverflowStatus(status, 64, stream));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    unsigned char host[64] = {};
    REQUIRE_ACL(aclrtMemcpy(host, 64, status, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t flag = 0;
    std::memcpy(&flag, host, sizeof flag);
    return flag;
}

void square(aclrtStream stream, float* device_in, float* device_out, float value, float factor) {
    REQUIRE_ACL(aclrtMemcpy(device_in, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE_ACL(launch_square_scale(1, stream, device_in, device_out, factor));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
}
}  // namespace

TEST_CASE("the device's float mode is IEEE inf / NaN until aclrtSetDeviceSatMode changes it") {
    Runtime rt;
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    CHECK_ACL(aclrtGetDeviceSatMode(&mode));
    CHECK(mode == ACL_RT_OVERFLOW_MODE_INFNAN);
    CHECK_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    CHECK_ACL(aclrtGetDeviceSatMode(&mode));
    CHECK(mode == ACL_RT_OVERFLOW_MODE_SATURATION);
    CHECK_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    CHECK_ACL_CODE(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(7)), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_INVALID_PARAM);
}

namespace {
constexpr uint32_t kElements = 64;  // one repeat of floats

// product = x * y and halves = Cast<half>(x), through the vector unit; with `doubled`,
// halves = halves + halves instead, computed on halves.
extern "C" __global__ __aicore__ void multiply_and_narrow(GM_ADDR x, GM_ADDR y, GM_ADDR product, GM_ADDR halves,
                                                          int32_t doubled) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floats, narrow;
    pipe.InitBuffer(floats, 3 * kElements * sizeof(float));
    pipe.InitBuffer(narrow, kElements * sizeof(half));
    AscendC::LocalTensor<float> a = floats.Get<float>();
    AscendC::LocalTensor<float> b = a[kElements];
    AscendC::LocalTensor<float> c = a[2 * kElements];
    AscendC::LocalTensor<half> h = narrow.Get<half>();
    load_tile(a, x, kElements);
    load_tile(b, y, kElements);
    AscendC::Mul(c, a, b, kElements);
    AscendC::Cast(h, a, AscendC::RoundMode::CAST_NONE, kElements);
    if (doubled) AscendC::Add(h, h, h, kElements);
    store_tile(product, c, kElements);
    store_tile(halves, h, kElements);
}

struct Results {
    std::vector<float> product;
    std::vector<float> halves;  // widened
};

Results multiply_and_narrow_on(aclrtStream stream, const std::vector<float>& x, const std::vector<float>& y,
                               bool doubled = false) {
    DeviceArray<float> dx(x), dy(y), product(kElements);
    DeviceArray<half> halves(kElements);
    REQUIRE(ACLRT_LAUNCH_KERNEL(multiply_and_narrow)(1, stream, dx.get(), dy.get(), product.get(), halves.get(),
                                                     doubled ? 1 : 0) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    Results results{product.read(), {}};
    for (const half value : halves.read()) results.halves.push_back(static_cast<float>(value));
    return results;
}

// kElements values: `first`, then ones.
std::vector<float> starting_with(std::initializer_list<float> first) {
    std::vector<float> values(kElements, 1.0f);
    std::copy(first.begin(), first.end(), values.begin());
    return values;
}

// x = {1e30, -1e30, 0, 1e6, 3, ...}, y = {1e30, 1e30, inf, 1, 2, ...} on `stream`.
Results multiply_and_narrow_on(aclrtStream stream) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    return multiply_and_narrow_on(stream, starting_with({1e30f, -1e30f, 0.0f, 1e6f, 3.0f}),
                                  starting_with({1e30f, 1e30f, inf, 1.0f, 2.0f}));
}
}  // namespace

TEST_CASE("streams created in saturation mode clamp infinite float results and turn NaN into 0") {
    constexpr float inf = std::numeric_limits<float>::infinity();
    constexpr float float_max = std::numeric_limits<float>::max();
    constexpr float half_max = 65504.0f;
    Runtime rt;
    Stream ieee;  // created in the default mode, which it keeps
    REQUIRE_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    Stream saturating;
    REQUIRE_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));

    const Results plain = multiply_and_narrow_on(ieee);
    CHECK(plain.product[0] == inf);
    CHECK(plain.product[1] == -inf);
    CHECK(std::isnan(plain.product[2]));
    CHECK(plain.product[3] == 1e6f);
    CHECK(plain.product[4] == 6.0f);
    CHECK(plain.halves[0] == inf);
    CHECK(plain.halves[1] == -inf);
    CHECK(plain.halves[3] == inf);
    CHECK(plain.halves[4] == 3.0f);

    const Results saturated = multiply_and_narrow_on(saturating);
    CHECK(saturated.product[0] == float_max);
    CHECK(saturated.product[1] == -float_max);
    CHECK(saturated.product[2] == 0.0f);
    CHECK(saturated.product[3] == 1e6f);
    CHECK(saturated.product[4] == 6.0f);
    CHECK(saturated.halves[0] == half_max);
    CHECK(saturated.halves[1] == -half_max);
    CHECK(saturated.halves[2] == 0.0f);
    CHECK(saturated.halves[3] == half_max);
    CHECK(saturated.halves[4] == 3.0f);
}

TEST_CASE("an overflowing kernel on a stream with the switch on sets the device's overflow status") {
    Runtime rt;
    Stream stream;
    void* status = nullptr;
    float* in = nullptr;
    float* out = nullptr;
    REQUIRE_ACL(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&in), 64, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&out), 64, ACL_MEM_MALLOC_HUGE_FIRST));

    uint32_t on = 9;
    CHECK_ACL(aclrtGetStreamOverflowSwitch(stream, &on));
    CHECK(on == 0);
    // Switch off: an overflow goes unrecorded.
    square(stream, in, out, 1e30f, 1e30f);
    CHECK(read_status(stream, status) == 0);

    REQUIRE_ACL(aclrtSetStreamOverflowSwitch(stream, 1));
    CHECK_ACL(aclrtGetStreamOverflowSwitch(stream, &on));
    CHECK(on == 1);
    square(stream, in, out, 2.0f, 3.0f);  // finite
    CHECK(read_status(stream, status) == 0);
    square(stream, in, out, 1e30f, 1e30f);  // overflows fp32 to inf
    float result = 0;
    REQUIRE_ACL(aclrtMemcpy(&result, sizeof result, out, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(result == std::numeric_limits<float>::infinity());  // IEEE, not saturated
    CHECK(read_status(stream, status) == 1);
    // The status is the device's: another stream reads it too, until it is reset in stream order.
    Stream other;
    CHECK(read_status(other, status) == 1);
    REQUIRE_ACL(aclrtResetOverflowStatus(other));
    CHECK(read_status(other, status) == 0);
    // 0 * inf is an invalid operation (NaN).
    square(stream, in, out, 0.0f, std::numeric_limits<float>::infinity());
    CHECK(read_status(stream, status) == 1);

    CHECK_ACL_CODE(aclrtGetOverflowStatus(status, 32, stream), ACL_ERROR_INVALID_PARAM);
    char host[64];
    CHECK_ACL_CODE(aclrtGetOverflowStatus(host, 64, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetOverflowStatus(nullptr, 64, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSetStreamOverflowSwitch(stream, 2), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetStreamOverflowSwitch(stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclrtFree(status));
    CHECK_ACL(aclrtFree(in));
    CHECK_ACL(aclrtFree(out));
}

TEST_CASE("a half result that overflows in its final rounding sets the overflow status") {
    Runtime rt;
    Stream stream;
    void* status = nullptr;
    REQUIRE_ACL(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtSetStreamOverflowSwitch(stream, 1));
    const std::vector<float> ones = starting_with({});
    // Every float finite: only the rounding to half overflows.
    multiply_and_narrow_on(stream, starting_with({60000.0f}), ones);
    CHECK(read_status(stream, status) == 0);  // 60000 fits a half
    const Results narrowed = multiply_and_narrow_on(stream, starting_with({70000.0f}), ones);
    CHECK(narrowed.halves[0] == std::numeric_limits<float>::infinity());
    CHECK(read_status(stream, status) == 1);  // Cast
    REQUIRE_ACL(aclrtResetOverflowStatus(stream));
    CHECK(read_status(stream, status) == 0);
    const Results doubled = multiply_and_narrow_on(stream, starting_with({40000.0f}), ones, true);
    CHECK(doubled.halves[0] == std::numeric_limits<float>::infinity());
    CHECK(doubled.halves[1] == 2.0f);
    CHECK(read_status(stream, status) == 1);  // Add on halves
    CHECK_ACL(aclrtFree(status));
}
