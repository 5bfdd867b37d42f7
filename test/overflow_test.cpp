// Float overflow: the device's saturation mode (IEEE inf / NaN only), the stream's overflow switch,
// and the device's overflow status, set by kernels that raise IEEE overflow, invalid or
// divide-by-zero flags on a stream with the switch on.
#include <cstring>
#include <limits>

#include "runtime_kernels.h"
#include "support.h"

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

TEST_CASE("the device computes IEEE inf / NaN; saturation mode is refused") {
    Runtime rt;
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    CHECK_ACL(aclrtGetDeviceSatMode(&mode));
    CHECK(mode == ACL_RT_OVERFLOW_MODE_INFNAN);
    CHECK_ACL_CODE(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(recent_error().find("IEEE") != std::string::npos);
    CHECK_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    CHECK_ACL_CODE(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(7)), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_INVALID_PARAM);
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
