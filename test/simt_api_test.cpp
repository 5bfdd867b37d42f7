// The SIMT API of the Ascend 950 (simt_api/asc_simt.h): kernels launched with
// <<<blocks, threads, dynUBufSize, stream>>> and __simt_vf__ functions called through asc_vf_call, their
// threads run as fibers (kernels/src/simt_fiber.cpp). A golden test per family (indices, barrier,
// shuffles and votes, atomics, the VF call) and a broken kernel per check (a barrier a thread does not
// reach, a deadlock, too many threads).
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"
#include "simt_kernels.h"
#include "support.h"

using canopy_test::DeviceArray;
using canopy_test::recent_error;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("SIMT vector add: threadIdx, blockIdx and blockDim over 1024-thread blocks") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t n = 5000;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = float(i);
        y[i] = float(2 * i + 1);
    }
    DeviceArray<float> dx(x), dy(y), dz(n);
    REQUIRE_ACL(launch_simt_add((n + 1023) / 1024, 1024, stream, dx.get(), dy.get(), dz.get(), n));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto z = dz.read();
    for (uint32_t i = 0; i < n; ++i) REQUIRE(z[i] == float(3 * i + 1));
}

TEST_CASE("SIMT dim3 launch: a 2-D block and gridDim") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t width = 32, height = 8;
    DeviceArray<uint32_t> out(width * height);
    REQUIRE_ACL(launch_simt_index_2d(stream, out.get(), width, height));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto seen = out.read();
    for (uint32_t yy = 0; yy < height; ++yy)
        for (uint32_t xx = 0; xx < width; ++xx) REQUIRE(seen[yy * width + xx] == yy * 1000 + xx);
}

TEST_CASE("SIMT block reduction: asc_syncthreads and asc_shfl_down") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t blocks = 6;
    std::vector<float> x(blocks * 1024);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 97);
    DeviceArray<float> dx(x), sums(blocks);
    REQUIRE_ACL(launch_simt_block_sum(blocks, stream, dx.get(), sums.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto got = sums.read();
    for (uint32_t b = 0; b < blocks; ++b) {
        double expected = 0;
        for (uint32_t i = 0; i < 1024; ++i) expected += x[b * 1024 + i];
        CHECK(got[b] == doctest::Approx(expected));
    }
}

TEST_CASE("SIMT warp functions: shuffles, reduce, votes") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t threads = 40;  // a full warp and a partial one of 8 lanes
    DeviceArray<int32_t> out(threads * 8);
    REQUIRE_ACL(launch_simt_warp(threads, stream, out.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t t = 0; t < threads; ++t) {
        const int32_t lane = int32_t(t % 32);
        const int32_t lanes = t < 32 ? 32 : 8;
        const int32_t* v = &r[t * 8];
        CAPTURE(t);
        CHECK(v[0] == 30);
        CHECK(v[1] == (lane == 0 ? 0 : lane - 1));
        const int32_t base = lane & ~7;
        CHECK(v[2] == (lane + 2 < base + 8 && lane + 2 < lanes ? lane + 2 : lane));
        CHECK(v[3] == ((lane ^ 1) < lanes ? (lane ^ 1) : lane));
        CHECK(v[4] == lanes * (lanes - 1) / 2);
        CHECK(uint32_t(v[5]) == (lanes == 32 ? 0x55555555u : 0x55u));
        CHECK(v[6] == 1);
        CHECK(v[7] == 1);
    }
}

TEST_CASE("SIMT atomics on GM across blocks: asc_atomic_add and asc_atomic_cas") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t n = 100000;
    std::vector<uint8_t> data(n);
    std::vector<uint32_t> expected(17, 0);
    for (uint32_t i = 0; i < n; ++i) {
        data[i] = uint8_t((i * 7919u) >> 3);
        ++expected[data[i] % 16];
    }
    expected[16] = n;
    DeviceArray<uint8_t> d(data);
    DeviceArray<uint32_t> bins(17);
    REQUIRE_ACL(launch_simt_histogram(8, stream, d.get(), n, bins.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(bins.read() == expected);
}

TEST_CASE("asc_vf_call of a __simt_vf__ function from a SIMD kernel runs its threads before returning") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    constexpr uint32_t blocks = 4, threads = 96;
    DeviceArray<uint32_t> out(blocks * threads);
    REQUIRE_ACL(launch_simt_vf(blocks, threads, stream, out.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t b = 0; b < blocks; ++b)
        for (uint32_t t = 0; t < threads; ++t) REQUIRE(r[b * threads + t] == b * 100000 + t + blocks * 1000);
}

TEST_CASE("a barrier a thread returns without reaching fails the launch naming kernel, block and thread") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    REQUIRE_ACL(launch_simt_unreached_barrier(stream));
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    CHECK(contains(message, "simt_unreached_barrier"));
    // Both blocks fail; the one whose fault is reported first depends on the workers' timing.
    CHECK((contains(message, "block 0/2") || contains(message, "block 1/2")));
    CHECK(contains(message, "asc_syncthreads"));
    CHECK(contains(message, "thread 0"));
}

TEST_CASE("a deadlock (a lane at a shuffle, the others at the barrier) fails the launch instead of hanging") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    REQUIRE_ACL(launch_simt_deadlock(stream));
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    CHECK(contains(message, "simt_deadlock"));
    CHECK(contains(message, "deadlock"));
    CHECK(contains(message, "waits at asc_s"));
}

TEST_CASE("more than 2048 threads in a block fail the launch") {
    canopy_test::Runtime runtime;
    canopy_test::Stream stream;
    REQUIRE_ACL(launch_simt_too_many_threads(stream));
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(contains(recent_error(), "4096x1x1 threads"));
}
