// CANN's C API (c_api/asc_simd.h) on the A2: asc_copy_gm2ub / asc_add / asc_copy_ub2gm on a
// kernel's own __ubuf__ arrays, ordered by asc_sync_notify / asc_sync_wait, by the _sync forms and by
// asc_sync, against the sum computed here; and its broken kernels: a V instruction reading what
// MTE2 copied without an order, and a copy to an address outside the UB.
#include <cstdint>
#include <string>
#include <vector>

#include "c_api_kernels.h"
#include "support.h"

using namespace canopy_test;

TEST_CASE("the C API adds two vectors through the UB, each way of ordering its pipes") {
    Runtime runtime;
    Stream stream;
    const uint32_t blocks = 4;
    const uint32_t n = 2048;
    std::vector<float> x(blocks * n);
    std::vector<float> y(blocks * n);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = float(i % 97) * 0.25f;
        y[i] = 1.5f - float(i % 13);
    }
    DeviceArray<float> dx(x);
    DeviceArray<float> dy(y);
    for (int32_t mode : {0, 1, 2}) {
        CAPTURE(mode);
        DeviceArray<float> dz(x.size());
        REQUIRE_ACL(launch_c_api_add(blocks, stream, dx.get(), dy.get(), dz.get(), n, mode));
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<float> z = dz.read();
        for (std::size_t i = 0; i < z.size(); ++i) {
            if (z[i] != x[i] + y[i]) {
                FAIL_CHECK("z[" << i << "] is " << z[i] << ", expected " << x[i] + y[i]);
                break;
            }
        }
    }
}

TEST_CASE("C API kernels that break the model's rules fail the launch naming the call") {
    Runtime runtime;
    Stream stream;
    DeviceArray<float> x(std::vector<float>(2 * 2048, 1.0f));
    DeviceArray<float> z(2 * 2048);
    SUBCASE("asc_add reading what MTE2 copied, with no MTE2 -> V order") {
        REQUIRE_ACL(launch_c_api_add(2, stream, x.get(), x.get(), z.get(), 2048, 3));
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        MESSAGE(message);
        CHECK(message.find("kernel c_api_add block ") != std::string::npos);
        CHECK(message.find("MTE2") != std::string::npos);
    }
    SUBCASE("asc_copy_gm2ub to an address before the UB") {
        REQUIRE_ACL(launch_c_api_outside_ub(stream, x.get()));
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        MESSAGE(message);
        CHECK(message.find("kernel c_api_outside_ub block 0/1: asc_copy_gm2ub: 256 bytes at address ") != std::string::npos);
        CHECK(message.find("are not in the block's") != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}
