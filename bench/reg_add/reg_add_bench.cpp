// The Ascend 950's register-based add against a hand-written oneTBB add in the same binary.
//
// reg_add_16M: asc-devkit's examples/01_simd_cpp_api/00_introduction/04_reg_compute/add in its own
//   shape, scaled to 16M floats: each of 512 blocks copies its 32768 floats (128 KiB) of x into the
//   UB, orders the copy before the VF with an MTE2_V flag, runs the VF (UpdateMask, two LoadAligns,
//   Add, StoreAlign per 64-float register: y = x + x) and copies the result out after a V_MTE3
//   flag; one iteration = the launch + aclrtSynchronizeStream. The baseline is y = x + x with
//   tbb::parallel_for over 1024 chunks on the default arena. Target: at least 0.8x the baseline's
//   throughput (the driver's ratio of medians).
#include <cstdint>
#include <random>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "acl/acl.h"
#include "acl_runtime.h"
#include "canopy/kernel/launch.h"
#include "driver.h"
#include "kernel_operator.h"

namespace {

constexpr uint32_t kTotal = 16u * 1024 * 1024;
constexpr uint32_t kSlice = 32768;  // floats per block
constexpr uint32_t kBlocks = kTotal / kSlice;

template <typename T, uint32_t singleCoreLength>
__simd_vf__ inline void AddVF(__ubuf__ T* dstAddr, uint32_t count) {
    constexpr uint32_t oneRepeatSize = AscendC::GetVecLen() / sizeof(T);
    const uint32_t repeatTimes = (singleCoreLength + oneRepeatSize - 1) / oneRepeatSize;
    AscendC::Reg::MaskReg mask;
    AscendC::Reg::RegTensor<T> srcReg, dstReg;
    for (uint32_t i = 0; i < repeatTimes; ++i) {
        mask = AscendC::Reg::UpdateMask<T>(count);
        AscendC::Reg::LoadAlign(srcReg, dstAddr + i * oneRepeatSize);
        AscendC::Reg::LoadAlign(dstReg, dstAddr + i * oneRepeatSize);
        AscendC::Reg::Add(dstReg, dstReg, srcReg, mask);
        AscendC::Reg::StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask);
    }
}

extern "C" __global__ __vector__ void reg_add_kernel(GM_ADDR x, GM_ADDR y) {
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    const uint32_t coreOffset = AscendC::GetBlockIdx() * kSlice;
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> yLocal = ubAllocator.Alloc<float, kSlice>();
    AscendC::DataCopy(yLocal, xGm[coreOffset], kSlice);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    asc_vf_call<AddVF<float, kSlice>>(reinterpret_cast<__ubuf__ float*>(yLocal.GetPhyAddr()), kSlice);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm[coreOffset], yLocal, kSlice);
    AscendC::PipeBarrier<PIPE_ALL>();
}

std::vector<float> input() {
    std::vector<float> values(kTotal);
    std::mt19937 engine(1);
    std::uniform_real_distribution<float> distribution(-1, 1);
    for (float& value : values) value = distribution(engine);
    return values;
}

void reg_add_canopy(benchmark::State& state) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<float> x = input();
    const std::size_t bytes = x.size() * sizeof(float);
    void* x_device = nullptr;
    void* y_device = nullptr;
    aclrtMalloc(&x_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x_device, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    // The output's pages exist before timing, as the baseline's vector's do.
    aclrtMemset(y_device, bytes, 0, bytes);
    for (auto _ : state) {
        if (ACLRT_LAUNCH_KERNEL(reg_add_kernel)(kBlocks, rt.stream, x_device, y_device) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    std::vector<float> y(kTotal);
    aclrtMemcpy(y.data(), bytes, y_device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < kTotal; i += 4099) {
        if (y[i] != x[i] + x[i]) {
            state.SkipWithError("reg_add_kernel computed a wrong sum");
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 2 * bytes);
    aclrtFree(x_device);
    aclrtFree(y_device);
}
BENCHMARK(reg_add_canopy)->Name("reg_add_16M/canopy")->Unit(benchmark::kMillisecond)->UseRealTime();

void reg_add_baseline(benchmark::State& state) {
    const std::vector<float> x = input();
    std::vector<float> y(kTotal, 0.0f);
    const float* xs = x.data();
    float* ys = y.data();
    for (auto _ : state) {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, kTotal, kTotal / 1024),
                                  [=](const oneapi::tbb::blocked_range<std::size_t>& range) {
                                      for (std::size_t i = range.begin(); i != range.end(); ++i) ys[i] = xs[i] + xs[i];
                                  });
        benchmark::DoNotOptimize(ys);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 2 * kTotal * sizeof(float));
}
BENCHMARK(reg_add_baseline)->Name("reg_add_16M/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

const bool targets = [] {
    canopy::bench::register_target("reg_add_16M", 0.0, 0.8);
    return true;
}();

}  // namespace
