// The high-level Matmul (lib/matmul_intf.h) against Eigen's GEMM in the same binary.
//
// matmul_float_1024: C = A x B, M = N = K = 1024, float in and out, one launch of one block (the
//   host tiling of MatmulApiTiling: the whole shape on one core) + aclrtSynchronizeStream, against
//   Eigen's float GEMM of the same shape on one thread (Eigen::setNbThreads(1)). Target: at least
//   0.5x the baseline's throughput.
// matmul_float_1024_cores: the same product split by MultiCoreMatmulTiling over the 20 cube cores
//   of the modelled SoC (the blocks run in parallel on the device's workers), against the same
//   single-threaded baseline; reported without a target.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <Eigen/Core>

#include "acl/acl.h"
#include "acl_runtime.h"
#include "canopy/kernel/launch.h"
#include "driver.h"
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

namespace {

constexpr int kSize = 1024;

__global__ __cube__ void matmul_float_bench_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling_gm) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const int32_t block = int32_t(AscendC::GetBlockIdx());
    if (block >= tiling.usedCoreNum) return;
    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t mi = block % mBlocks, ni = block / mBlocks;
    AscendC::GlobalTensor<float> ga, gb, gc;
    ga.SetGlobalBuffer((__gm__ float*)a, uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ float*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    mm.SetTail(std::min(tiling.singleCoreM, tiling.M - mi * tiling.singleCoreM),
               std::min(tiling.singleCoreN, tiling.N - ni * tiling.singleCoreN));
    mm.SetTensorA(ga[uint64_t(mi) * tiling.singleCoreM * tiling.Ka]);
    mm.SetTensorB(gb[uint64_t(ni) * tiling.singleCoreN]);
    mm.IterateAll(gc[uint64_t(mi) * tiling.singleCoreM * tiling.N + uint64_t(ni) * tiling.singleCoreN]);
    mm.End();
}

std::vector<float> input(unsigned seed) {
    std::vector<float> values(std::size_t(kSize) * kSize);
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> distribution(-1, 1);
    for (float& value : values) value = distribution(engine);
    return values;
}

template <typename T>
void* device_copy(const std::vector<T>& host) {
    void* device = nullptr;
    const std::size_t bytes = host.size() * sizeof(T);
    aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    return device;
}

AscendC::tiling::TCubeTiling tiling_for(int cores) {
    using namespace matmul_tiling;
    AscendC::tiling::TCubeTiling tiling;
    auto set = [&](MatmulApiTilingBase& api) {
        api.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
        api.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
        api.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
        api.SetOrgShape(kSize, kSize, kSize);
        api.SetShape(kSize, kSize, kSize);
        api.SetBufferSpace(-1, -1, -1);
        api.GetTiling(tiling);
    };
    if (cores == 1) {
        MatmulApiTiling api;
        set(api);
    } else {
        MultiCoreMatmulTiling api;
        api.SetDim(cores);
        set(api);
    }
    return tiling;
}

void set_counters(benchmark::State& state) {
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * kSize * kSize * kSize * double(state.iterations()) / 1e9,
                                                  benchmark::Counter::kIsRate);
}

void matmul_canopy(benchmark::State& state, int cores) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<float> a = input(1), b = input(2);
    const AscendC::tiling::TCubeTiling tiling = tiling_for(cores);
    void* a_device = device_copy(a);
    void* b_device = device_copy(b);
    void* c_device = device_copy(std::vector<float>(std::size_t(kSize) * kSize, 0.0f));
    void* tiling_device = device_copy(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    for (auto _ : state) {
        if (ACLRT_LAUNCH_KERNEL(matmul_float_bench_kernel)(uint32_t(tiling.usedCoreNum), rt.stream, a_device,
                                                           b_device, c_device, tiling_device) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    std::vector<float> c(std::size_t(kSize) * kSize);
    aclrtMemcpy(c.data(), c.size() * sizeof(float), c_device, c.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    for (int row = 0; row < kSize; row += 97) {
        for (int column = 0; column < kSize; column += 89) {
            double exact = 0;
            for (int k = 0; k < kSize; ++k) {
                exact += double(a[std::size_t(row) * kSize + k]) * double(b[std::size_t(k) * kSize + column]);
            }
            if (std::fabs(c[std::size_t(row) * kSize + column] - exact) > 1e-3 * std::max(1.0, std::fabs(exact))) {
                state.SkipWithError("the Matmul computed a wrong product");
                row = kSize;
                break;
            }
        }
    }
    state.counters["cores"] = tiling.usedCoreNum;
    set_counters(state);
    aclrtFree(a_device);
    aclrtFree(b_device);
    aclrtFree(c_device);
    aclrtFree(tiling_device);
}
BENCHMARK_CAPTURE(matmul_canopy, one_core, 1)
    ->Name("matmul_float_1024/canopy")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(matmul_canopy, cube_cores, 20)
    ->Name("matmul_float_1024_cores/canopy")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void matmul_baseline(benchmark::State& state) {
    Eigen::setNbThreads(1);
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const std::vector<float> a = input(1), b = input(2);
    const Eigen::Map<const Matrix> A(a.data(), kSize, kSize);
    const Eigen::Map<const Matrix> B(b.data(), kSize, kSize);
    Matrix C(kSize, kSize);
    for (auto _ : state) {
        C.noalias() = A * B;
        benchmark::DoNotOptimize(C.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}
BENCHMARK(matmul_baseline)->Name("matmul_float_1024/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(matmul_baseline)->Name("matmul_float_1024_cores/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

const bool targets = [] {
    canopy::bench::register_target("matmul_float_1024", 0.0, 0.5);
    return true;
}();

}  // namespace
