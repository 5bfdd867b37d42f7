// The kernel API compiles as C++17 (CANN's samples build with -std=c++17): this file is compiled
// with CXX_STANDARD 17 and runs a kernel written in the official add sample's style through
// kernel_operator.h and the CANN-path headers the samples include.
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"
#include "basic_api/kernel_operator_block_sync_intf.h"
#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"
#include "utils/debug/asc_printf.h"

static_assert(__cplusplus == 201703L, "this test must be compiled as C++17");

namespace {

constexpr uint32_t kLength = 2048;

template <uint32_t blockLength>
__vector__ __global__ void add_custom(__gm__ float* x, __gm__ float* y, __gm__ float* z) {
    AscendC::InitSocState();
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(x + block_idx * blockLength, blockLength);
    yGm.SetGlobalBuffer(y + block_idx * blockLength, blockLength);
    zGm.SetGlobalBuffer(z + block_idx * blockLength, blockLength);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> xLocal = ubAllocator.Alloc<float, blockLength>();
    AscendC::LocalTensor<float> yLocal = ubAllocator.Alloc<float, blockLength>();
    AscendC::LocalTensor<float> zLocal = ubAllocator.Alloc<float, blockLength>();
    AscendC::DataCopy(xLocal, xGm, blockLength);
    AscendC::DataCopy(yLocal, yGm, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(zLocal, xLocal, yLocal, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, zLocal, blockLength);
    AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace

TEST_CASE("a kernel in the official samples' style builds as C++17 and computes its result") {
    REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
    REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream stream = nullptr;
    REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
    constexpr uint32_t blocks = 8, total = blocks * kLength;
    const std::size_t bytes = total * sizeof(float);
    std::vector<float> x(total), y(total), z(total, 0.0f);
    for (uint32_t i = 0; i < total; ++i) {
        x[i] = float(i) * 0.1f;
        y[i] = float(i) * 0.2f;
    }
    void *xd = nullptr, *yd = nullptr, *zd = nullptr;
    REQUIRE(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    REQUIRE(aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    REQUIRE(aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(yd, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    CHECK(ACLRT_LAUNCH_KERNEL(add_custom<kLength>)(blocks, stream, xd, yd, zd) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    REQUIRE(aclrtMemcpy(z.data(), bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
    for (uint32_t i = 0; i < total; ++i) REQUIRE(z[i] == x[i] + y[i]);
    aclrtFree(xd);
    aclrtFree(yd);
    aclrtFree(zd);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
}
