// SIMT kernels on the Ascend 950's model (simt_api/asc_simt.h, kernels/src/simt_fiber.cpp) against
// hand-written oneTBB code in the same binary.
//
// simt_add_16M: z = x + y over 16M floats by 16384 blocks of 1024 SIMT threads, one element per
//   thread (blockIdx.x * blockDim.x + threadIdx.x); one iteration = the launch + aclrtSynchronizeStream.
//   Baseline: tbb::parallel_for over 1024 chunks. Target: at least 0.3x the baseline's throughput.
// simt_reduce_16M: the sum of 16M floats by 64 blocks of 1024 threads, each thread summing a
//   grid-stride slice, then a warp reduction with asc_shfl_down, asc_syncthreads and the first warp
//   over the warps' sums in the block's UB; the 64 block sums are added on the host. Baseline:
//   tbb::parallel_reduce. Target: at least 0.2x.
// simt_barrier_1024: one block of 1024 threads passing asc_syncthreads 1000 times; the time per
//   barrier is the iteration time / 1000 (reported, no baseline).
//
// The kernels are written in the form the kernel compiler gives a <<<blocks, threads, ub, stream>>>
// launch (ChevronLaunchAt), since this file is compiled as plain C++.
#include <cstdint>
#include <random>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "acl/acl.h"
#include "acl_runtime.h"
#include "canopy/kernel/launch.h"
#include "driver.h"
#include "simt_api/asc_simt.h"

namespace {

constexpr uint32_t kTotal = 16u * 1024 * 1024;
constexpr uint32_t kThreads = 1024;
constexpr uint32_t kReduceBlocks = 64;
constexpr uint32_t kBarriers = 1000;

void simt_add(const float* x, const float* y, float* z, uint32_t n) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}

void simt_reduce(const float* x, float* sums, uint32_t n) {
    float* warp_sums = reinterpret_cast<float*>(canopy::kernel::current_block().ub);
    float v = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += x[i];
    for (int offset = 16; offset > 0; offset /= 2) v += asc_shfl_down(v, offset);
    const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = v;
    asc_syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) v += asc_shfl_down(v, offset);
        if (lane == 0) sums[blockIdx.x] = v;
    }
}

void simt_barriers(uint32_t* out) {
    uint32_t passed = 0;
    for (uint32_t i = 0; i < kBarriers; ++i) {
        asc_syncthreads();
        ++passed;
    }
    if (threadIdx.x == 0) out[0] = passed;
}

const canopy::kernel::ChevronSite add_site{"simt_add", false, false, {}};
const canopy::kernel::ChevronSite reduce_site{"simt_reduce", false, false, {}};
const canopy::kernel::ChevronSite barrier_site{"simt_barriers", false, false, {}};

template <class Kernel>
canopy::kernel::ChevronLaunchAt<Kernel> chevron(const canopy::kernel::ChevronSite& site, Kernel kernel,
                                                canopy::kernel::SimtDim blocks, canopy::kernel::SimtDim threads,
                                                uint32_t ub, void* stream) {
    return canopy::kernel::ChevronLaunchAt<Kernel>(site, kernel, blocks, threads, ub, stream);
}

std::vector<float> input(uint32_t seed) {
    std::vector<float> values(kTotal);
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> distribution(-1, 1);
    for (float& value : values) value = distribution(engine);
    return values;
}

struct Device {
    void* x = nullptr;
    void* y = nullptr;
    void* z = nullptr;
    Device(const std::vector<float>& xs, const std::vector<float>& ys) {
        const std::size_t bytes = kTotal * sizeof(float);
        aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(x, bytes, xs.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemcpy(y, bytes, ys.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemset(z, bytes, 0, bytes);
    }
    ~Device() {
        aclrtFree(x);
        aclrtFree(y);
        aclrtFree(z);
    }
};

void simt_add_canopy(benchmark::State& state) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<float> x = input(1), y = input(2);
    Device d(x, y);
    auto kernel = [](auto&&... a) { simt_add(a...); };
    for (auto _ : state) {
        if (chevron(add_site, kernel, kTotal / kThreads, kThreads, 0, rt.stream)(
                static_cast<const float*>(d.x), static_cast<const float*>(d.y), static_cast<float*>(d.z), kTotal) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    std::vector<float> z(kTotal);
    aclrtMemcpy(z.data(), kTotal * sizeof(float), d.z, kTotal * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < kTotal; i += 4099) {
        if (z[i] != x[i] + y[i]) {
            state.SkipWithError("simt_add computed a wrong sum");
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 3 * kTotal * sizeof(float));
}
BENCHMARK(simt_add_canopy)->Name("simt_add_16M/canopy")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

void simt_add_baseline(benchmark::State& state) {
    const std::vector<float> x = input(1), y = input(2);
    std::vector<float> z(kTotal, 0.0f);
    const float* xs = x.data();
    const float* ys = y.data();
    float* zs = z.data();
    for (auto _ : state) {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, kTotal, kTotal / 1024),
                                  [=](const oneapi::tbb::blocked_range<std::size_t>& range) {
                                      for (std::size_t i = range.begin(); i != range.end(); ++i) zs[i] = xs[i] + ys[i];
                                  });
        benchmark::DoNotOptimize(zs);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 3 * kTotal * sizeof(float));
}
BENCHMARK(simt_add_baseline)->Name("simt_add_16M/baseline")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

void simt_reduce_canopy(benchmark::State& state) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<float> x = input(3);
    Device d(x, x);
    auto kernel = [](auto&&... a) { simt_reduce(a...); };
    double expected = 0;
    for (float v : x) expected += v;
    std::vector<float> sums(kReduceBlocks);
    for (auto _ : state) {
        if (chevron(reduce_site, kernel, kReduceBlocks, kThreads, 0, rt.stream)(
                static_cast<const float*>(d.x), static_cast<float*>(d.z), kTotal) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
        aclrtMemcpy(sums.data(), kReduceBlocks * sizeof(float), d.z, kReduceBlocks * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST);
        double total = 0;
        for (float s : sums) total += s;
        if (std::abs(total - expected) > 1e-2 * (1 + std::abs(expected))) {
            state.SkipWithError("simt_reduce computed a wrong sum");
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * kTotal * sizeof(float));
}
BENCHMARK(simt_reduce_canopy)->Name("simt_reduce_16M/canopy")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

void simt_reduce_baseline(benchmark::State& state) {
    const std::vector<float> x = input(3);
    const float* xs = x.data();
    for (auto _ : state) {
        const double total = oneapi::tbb::parallel_reduce(
            oneapi::tbb::blocked_range<std::size_t>(0, kTotal, kTotal / 1024), 0.0,
            [=](const oneapi::tbb::blocked_range<std::size_t>& range, double partial) {
                float sum = 0;
                for (std::size_t i = range.begin(); i != range.end(); ++i) sum += xs[i];
                return partial + sum;
            },
            [](double a, double b) { return a + b; });
        benchmark::DoNotOptimize(total);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * kTotal * sizeof(float));
}
BENCHMARK(simt_reduce_baseline)->Name("simt_reduce_16M/baseline")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

void simt_barrier_1024(benchmark::State& state) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    void* out = nullptr;
    aclrtMalloc(&out, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    auto kernel = [](auto&&... a) { simt_barriers(a...); };
    for (auto _ : state) {
        if (chevron(barrier_site, kernel, 1, kThreads, 0, rt.stream)(static_cast<uint32_t*>(out)) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    state.counters["ns_per_barrier"] = benchmark::Counter(double(state.iterations()) * kBarriers,
                                                          benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    aclrtFree(out);
}
BENCHMARK(simt_barrier_1024)->Name("simt_barrier_1024x1000")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

const bool targets = [] {
    canopy::bench::register_target("simt_add_16M", 0.0, 0.3);
    canopy::bench::register_target("simt_reduce_16M", 0.0, 0.2);
    return true;
}();

}  // namespace
