// CANN's C API on the Ascend 950: a __simd_vf__ function computing z = x * y + x with asc_load,
// asc_mul, asc_add, asc_store and asc_update_mask_b16 on vector_half registers, against the result
// computed here in half precision; and a broken kernel, a register store past the block's UB.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_api_kernels.h"
#include "canopy/kernel/ascendc/half.h"
#include "support.h"

using namespace canopy_test;

namespace {
uint16_t bits_of(float value) {
    const Eigen::half h(value);
    uint16_t bits;
    std::memcpy(&bits, &h, sizeof bits);
    return bits;
}
float value_of(uint16_t bits) {
    Eigen::half h;
    std::memcpy(static_cast<void*>(&h), &bits, sizeof bits);
    return float(h);
}
}  // namespace

TEST_CASE("the C API's register instructions compute in a __simd_vf__ function") {
    Runtime runtime;
    Stream stream;
    const uint32_t blocks = 3;
    const uint32_t n = 200;  // a register and a part of one
    std::vector<uint16_t> x(blocks * n);
    std::vector<uint16_t> y(blocks * n);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = bits_of(float(i % 17) * 0.5f);
        y[i] = bits_of(float(i % 5) - 2.0f);
    }
    DeviceArray<uint16_t> dx(x);
    DeviceArray<uint16_t> dy(y);
    DeviceArray<uint16_t> dz(x.size());
    REQUIRE_ACL(launch_c_api_reg(blocks, stream, dx.get(), dy.get(), dz.get(), n, 0));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<uint16_t> z = dz.read();
    for (std::size_t i = 0; i < z.size(); ++i) {
        const float expected = value_of(bits_of(value_of(bits_of(value_of(x[i]) * value_of(y[i]))) + value_of(x[i])));
        if (value_of(z[i]) != expected) {
            FAIL_CHECK("z[" << i << "] is " << value_of(z[i]) << ", expected " << expected);
            break;
        }
    }
}

TEST_CASE("a C API register store past the block's UB fails the launch") {
    Runtime runtime;
    Stream stream;
    DeviceArray<uint16_t> x(std::vector<uint16_t>(256, 0));
    DeviceArray<uint16_t> z(256);
    REQUIRE_ACL(launch_c_api_reg(1, stream, x.get(), x.get(), z.get(), 128, 1));
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    MESSAGE(message);
    CHECK(message.find("kernel c_api_reg block 0/1: Reg::StoreUnAlign: in __simd_vf__ ") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}
