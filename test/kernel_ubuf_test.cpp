// The kernel compiler's rewrite of the __ubuf__ arrays a kernel declares (canopy/kernel/ub_array.h,
// kernels/compiler/launch_rewrite.cpp): fixed-size arrays of a kernel, of the functions it calls
// and of a __simd_vf__ function get 32-byte aligned places of their own in the block's modelled UB,
// kept across the iterations of a loop, one per template instantiation; extern __ubuf__ arrays of
// unknown bound are the launch's dynamic UB. A kernel whose arrays do not fit, or that indexes past
// the dynamic UB, fails the launch naming the array.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "support.h"
#include "ubuf_kernels.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kFloats = 2048;

void expect_fault(aclrtStream stream, int32_t misuse, uint32_t dynamic_bytes, std::initializer_list<const char*> fragments) {
    REQUIRE_ACL(launch_ubuf_misuse(2, dynamic_bytes, stream, misuse));
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    MESSAGE(message);
    CHECK(message.find("kernel ubuf_misuse block ") != std::string::npos);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

}  // namespace

TEST_CASE("a kernel's __ubuf__ arrays are placed in the block's UB, and extern ones are its dynamic UB") {
    Runtime runtime;
    Stream stream;
    const uint32_t blocks = 3;
    const uint32_t dynamic_bytes = 1024;
    std::vector<float> x(blocks * kFloats);
    std::vector<float> y(blocks * kFloats);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = float(i % 1000) * 0.5f;
        y[i] = float(i % 7) - 3.0f;
    }
    DeviceArray<float> dx(x);
    DeviceArray<float> dy(y);
    DeviceArray<float> dz(x.size());
    DeviceArray<float> dw(blocks * dynamic_bytes / sizeof(float));
    DeviceArray<UbufRecord> records(blocks);
    REQUIRE_ACL(launch_ubuf_add(blocks, dynamic_bytes, stream, dx.get(), dy.get(), dz.get(), dw.get(), kFloats,
                                records.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));

    const std::vector<float> z = dz.read();
    for (std::size_t i = 0; i < z.size(); ++i) {
        if (z[i] != x[i] + y[i]) FAIL_CHECK("z[" << i << "] is " << z[i] << ", expected " << x[i] + y[i]);
    }
    const std::vector<float> w = dw.read();
    const uint32_t dynamic_floats = dynamic_bytes / sizeof(float);
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i] != x[i % dynamic_floats] * 2) FAIL_CHECK("w[" << i << "] is " << w[i]);
    }

    for (const UbufRecord& record : records.read()) {
        const int64_t static_end = record.ub_bytes - dynamic_bytes;
        // Each place: 32-byte aligned, in the UB the dynamic region leaves, overlapping no other.
        std::vector<std::pair<int64_t, int64_t>> places{
            {record.local_offset[0], 4 * kFloats}, {record.local_offset[1], 4 * kFloats},
            {record.local_offset[2], 4 * kFloats}, {record.loop_offsets[0], 100},
            {record.static_offset, 96},            {record.template_offsets[0], 64},
            {record.template_offsets[1], 64},      {record.vf_offset, 256}};
        std::sort(places.begin(), places.end());
        for (std::size_t i = 0; i < places.size(); ++i) {
            CAPTURE(places[i].first);
            CHECK(places[i].first % 32 == 0);
            CHECK(places[i].first >= 0);
            CHECK(places[i].first + places[i].second <= static_end);
            if (i > 0) CHECK(places[i - 1].first + places[i - 1].second <= places[i].first);
        }
        CHECK(record.loop_offsets[0] == record.loop_offsets[1]);
        CHECK(record.template_offsets[0] != record.template_offsets[1]);
        CHECK(record.sizes[0] == int64_t(4 * kFloats));
        CHECK(record.sizes[1] == int64_t(4 * 8 * sizeof(int16_t)));
        CHECK(record.dynamic_offset == static_end);
        CHECK(record.global_dynamic_offset == static_end);
    }
}

TEST_CASE("__ubuf__ arrays that do not fit in the UB, or an index past the dynamic UB, fail the launch") {
    Runtime runtime;
    Stream stream;
    SUBCASE("arrays larger than the UB") {
        expect_fault(stream, 1, 0, {"__ubuf__ array: huge: its 262144 bytes at UB byte 4096 do not fit in the "});
    }
    SUBCASE("an index past the dynamic UB") {
        expect_fault(stream, 2, 512,
                     {"__ubuf__ array: dynamic: element 128 is outside the launch's dynamic UB of 128 elements (512 bytes)"});
    }
}
