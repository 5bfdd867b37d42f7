// The reference operators against hand-written baselines in the same binary.
//
// vector_add_16M: add_custom (kernels/ops/add.cpp, double-buffered TQue pipeline through each
//   block's UB) on 16M floats, one iteration = ACLRT_LAUNCH_KERNEL + aclrtSynchronizeStream, against
//   z = x + y with tbb::parallel_for over 1024 chunks on the default TBB arena. Target: at least
//   0.8x the baseline's throughput.
// vector_add_16M_vs_tiled_copies: the same kernel against the same tiles hand-written with memcpy
//   into block-local buffers: what the kernel would cost if every copy through the UB were made
//   when it is issued (the asynchronous MTE2 model records them instead: deferred_moves.h).
// vector_add_small_tiles: the same kernel on 32K floats in 2 blocks of 2048 tiles of 8 floats,
//   against the same tiles hand-written: with the data in cache, the kernel's time is its API calls
//   (queues, pipe checks, records), 2048 tiles' worth per block; per tile = time / 2048.
// matmul_1024: matmul_custom (kernels/ops/matmul.cpp, cube path: Nd2Nz to L1, LoadData to L0A/L0B,
//   Mmad into L0C, Fixpipe to GM) for C = A x B at M = N = K = 1024, half in, fp32 accumulation,
//   half out, 16 blocks in parallel on the device's workers (launch + sync), against one call of
//   Eigen's GEMM on the same element types: C = (A.cast<float>() * B.cast<float>()).cast<half>()
//   (half in, fp32 accumulation, half out), single-threaded (Eigen::setNbThreads(1); Eigen is not
//   built with OpenMP either). Target: at least 0.6x the baseline's throughput.
// matmul_1024_vs_float_gemm: the same kernel against Eigen's plain float GEMM on matrices already
//   widened to float, outside the timed region (no conversions at all): the strongest baseline,
//   reported without a target.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <Eigen/Core>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "acl/acl.h"
#include "canopy/kernel/launch.h"
#include "acl_runtime.h"
#include "driver.h"
#include "reference_ops.h"

namespace {


// Device memory initialised from host data once; freed at exit.
template <typename T>
void* device_copy(const std::vector<T>& host) {
    void* device = nullptr;
    const std::size_t bytes = host.size() * sizeof(T);
    aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    return device;
}

// ---- vector add, 16M floats

// How an add run is cut: `length` floats over `blocks` blocks, each streaming tile_num x 2 tiles.
struct AddShape {
    uint32_t length;
    uint32_t blocks;
    uint32_t tile_num;
    uint32_t tile_length() const { return length / blocks / tile_num / 2; }
};
// 256K floats per block; tiles of 4096 floats (16 KiB), 96 KiB of UB in use.
constexpr AddShape kAdd16M{16u * 1024 * 1024, 64, 32};
// Tiles of 8 floats, two blocks (one per core here), everything in cache: the time is the kernel's
// API calls, 2048 tiles per block.
constexpr AddShape kAddSmallTiles{32768, 2, 1024};

std::vector<float> add_input(uint32_t length, unsigned seed) {
    std::vector<float> values(length);
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> distribution(-1, 1);
    for (float& value : values) value = distribution(engine);
    return values;
}

void vector_add_canopy(benchmark::State& state, AddShape shape) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<float> x = add_input(shape.length, 1), y = add_input(shape.length, 2);
    void* x_device = device_copy(x);
    void* y_device = device_copy(y);
    void* z_device = device_copy(std::vector<float>(shape.length, 0.0f));
    for (auto _ : state) {
        if (ACLRT_LAUNCH_KERNEL(add_custom)(shape.blocks, rt.stream, x_device, y_device, z_device,
                                            AddTiling{shape.length, shape.tile_num}) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    std::vector<float> z(shape.length);
    aclrtMemcpy(z.data(), shape.length * sizeof(float), z_device, shape.length * sizeof(float),
                ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t i = 0; i < shape.length; i += 4099) {
        if (z[i] != x[i] + y[i]) {
            state.SkipWithError("add_custom computed a wrong sum");
            break;
        }
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 3 * shape.length * sizeof(float));
    aclrtFree(x_device);
    aclrtFree(y_device);
    aclrtFree(z_device);
}
BENCHMARK_CAPTURE(vector_add_canopy, add16m, kAdd16M)
    ->Name("vector_add_16M/canopy")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void vector_add_baseline(benchmark::State& state) {
    const uint32_t length = kAdd16M.length;
    const std::vector<float> x = add_input(length, 1), y = add_input(length, 2);
    std::vector<float> z(length, 0.0f);
    const float* xs = x.data();
    const float* ys = y.data();
    float* zs = z.data();
    for (auto _ : state) {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, length, length / 1024),
                                  [=](const oneapi::tbb::blocked_range<std::size_t>& range) {
                                      for (std::size_t i = range.begin(); i != range.end(); ++i) zs[i] = xs[i] + ys[i];
                                  });
        benchmark::DoNotOptimize(zs);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 3 * length * sizeof(float));
}
BENCHMARK(vector_add_baseline)->Name("vector_add_16M/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

// The kernel's copies made as they are issued, hand-written: the same blocks on tbb::parallel_for,
// each copying its tiles into a double-buffered block-local buffer (MTE2), adding there into a
// third (V) and copying the sum out (MTE3), with memcpy and a plain loop.
void vector_add_tiled_copies(benchmark::State& state, AddShape shape) {
    const std::vector<float> x = add_input(shape.length, 1), y = add_input(shape.length, 2);
    std::vector<float> z(shape.length, 0.0f);
    const uint32_t block_length = shape.length / shape.blocks;
    const uint32_t tile_length = shape.tile_length();
    const float* xs = x.data();
    const float* ys = y.data();
    float* zs = z.data();
    for (auto _ : state) {
        oneapi::tbb::parallel_for(uint32_t{0}, shape.blocks, [=](uint32_t block) {
            // A worker's buffer, made once and reused by every block it runs (as Canopy's UB is).
            thread_local std::vector<float> unified_buffer;
            unified_buffer.resize(6 * tile_length);
            for (uint32_t tile = 0; tile < block_length / tile_length; ++tile) {
                float* x_tile = unified_buffer.data() + (tile % 2) * 3 * tile_length;
                float* y_tile = x_tile + tile_length;
                float* z_tile = y_tile + tile_length;
                const std::size_t offset = std::size_t(block) * block_length + std::size_t(tile) * tile_length;
                std::memcpy(x_tile, xs + offset, tile_length * sizeof(float));
                std::memcpy(y_tile, ys + offset, tile_length * sizeof(float));
                for (uint32_t i = 0; i < tile_length; ++i) z_tile[i] = x_tile[i] + y_tile[i];
                std::memcpy(zs + offset, z_tile, tile_length * sizeof(float));
            }
        });
        benchmark::DoNotOptimize(zs);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * 3 * shape.length * sizeof(float));
}
BENCHMARK_CAPTURE(vector_add_canopy, add16m, kAdd16M)
    ->Name("vector_add_16M_vs_tiled_copies/canopy")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(vector_add_tiled_copies, add16m, kAdd16M)
    ->Name("vector_add_16M_vs_tiled_copies/baseline")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(vector_add_canopy, small, kAddSmallTiles)
    ->Name("vector_add_small_tiles/canopy")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(vector_add_tiled_copies, small, kAddSmallTiles)
    ->Name("vector_add_small_tiles/baseline")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// ---- matmul, 1024^3

constexpr uint32_t kSize = 1024;
constexpr uint32_t kMatmulBlocks = (kSize / 256) * (kSize / 256);
constexpr MatmulTiling kMatmulTiling{kSize, kSize, kSize, /*singleCoreM*/ 256, /*singleCoreN*/ 256,
                                     /*baseM*/ 128, /*baseN*/ 256, /*baseK*/ 64};

using HalfMatrix = Eigen::Matrix<half, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<half> matmul_input(unsigned seed) {
    std::vector<half> values(std::size_t(kSize) * kSize);
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> distribution(-1, 1);
    for (half& value : values) value = half(distribution(engine));
    return values;
}

void set_matmul_counters(benchmark::State& state) {
    state.counters["GFLOPS"] = benchmark::Counter(2.0 * kSize * kSize * kSize * double(state.iterations()) / 1e9,
                                                  benchmark::Counter::kIsRate);
}

void matmul_canopy(benchmark::State& state) {
    canopy::bench::AclRuntime& rt = canopy::bench::acl_runtime();
    const std::vector<half> a = matmul_input(3), b = matmul_input(4);
    void* a_device = device_copy(a);
    void* b_device = device_copy(b);
    void* c_device = device_copy(std::vector<half>(std::size_t(kSize) * kSize, half(0.0f)));
    for (auto _ : state) {
        if (ACLRT_LAUNCH_KERNEL(matmul_custom)(kMatmulBlocks, rt.stream, a_device, b_device, c_device,
                                               kMatmulTiling) != 0 ||
            aclrtSynchronizeStream(rt.stream) != ACL_SUCCESS) {
            state.SkipWithError(aclGetRecentErrMsg());
            break;
        }
    }
    // Spot check against a double-precision dot product.
    std::vector<half> c(std::size_t(kSize) * kSize);
    aclrtMemcpy(c.data(), c.size() * sizeof(half), c_device, c.size() * sizeof(half), ACL_MEMCPY_DEVICE_TO_HOST);
    for (uint32_t row = 0; row < kSize; row += 97) {
        for (uint32_t column = 0; column < kSize; column += 89) {
            double exact = 0;
            for (uint32_t k = 0; k < kSize; ++k) {
                exact += double(float(a[std::size_t(row) * kSize + k])) *
                         double(float(b[std::size_t(k) * kSize + column]));
            }
            const double error = std::fabs(float(c[std::size_t(row) * kSize + column]) - exact);
            if (error > 1e-2 * std::max(1.0, std::fabs(exact))) {
                state.SkipWithError("matmul_custom computed a wrong product");
                row = kSize;
                break;
            }
        }
    }
    set_matmul_counters(state);
    aclrtFree(a_device);
    aclrtFree(b_device);
    aclrtFree(c_device);
}
BENCHMARK(matmul_canopy)->Name("matmul_1024/canopy")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(matmul_canopy)->Name("matmul_1024_vs_float_gemm/canopy")->Unit(benchmark::kMillisecond)->UseRealTime();

// Eigen GEMM on the same element types: half in, fp32 accumulation, half out, one thread.
void matmul_baseline(benchmark::State& state) {
    Eigen::setNbThreads(1);
    const std::vector<half> a = matmul_input(3), b = matmul_input(4);
    const Eigen::Map<const HalfMatrix> A(a.data(), kSize, kSize);
    const Eigen::Map<const HalfMatrix> B(b.data(), kSize, kSize);
    HalfMatrix C(kSize, kSize);
    for (auto _ : state) {
        C = (A.cast<float>() * B.cast<float>()).cast<half>();
        benchmark::DoNotOptimize(C.data());
        benchmark::ClobberMemory();
    }
    set_matmul_counters(state);
}
BENCHMARK(matmul_baseline)->Name("matmul_1024/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

// Eigen's float GEMM alone, operands widened before timing: no conversion cost at all.
void float_gemm_baseline(benchmark::State& state) {
    Eigen::setNbThreads(1);
    const std::vector<half> a = matmul_input(3), b = matmul_input(4);
    const FloatMatrix A = Eigen::Map<const HalfMatrix>(a.data(), kSize, kSize).cast<float>();
    const FloatMatrix B = Eigen::Map<const HalfMatrix>(b.data(), kSize, kSize).cast<float>();
    FloatMatrix C(kSize, kSize);
    for (auto _ : state) {
        C.noalias() = A * B;
        benchmark::DoNotOptimize(C.data());
        benchmark::ClobberMemory();
    }
    set_matmul_counters(state);
}
BENCHMARK(float_gemm_baseline)
    ->Name("matmul_1024_vs_float_gemm/baseline")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

const bool targets = [] {
    canopy::bench::register_target("vector_add_16M", 0.0, 0.8);
    canopy::bench::register_target("matmul_1024", 0.0, 0.6);
    return true;
}();

}  // namespace
