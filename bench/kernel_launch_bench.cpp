// Kernel launch cost, each case beside its baseline in the same binary (the driver prints the
// ratios of the medians):
//   kernel_1_block      launch + synchronize of an empty 1-block kernel, against the runtime's
//                       empty host task round trip (aclrtLaunchHostFunc + aclrtSynchronizeStream);
//                       target at most 1.5x.
//   kernel_1024_blocks  launch + synchronize of an empty 1024-block kernel, against a raw
//                       tbb::parallel_for over 1024 blocks that calls an empty block function;
//                       target at most 1.5x.
//   plain_kernel_vector_add_16M  z = x + y over 16M floats in 1024 blocks by a plain kernel (no
//                       UB pipeline), against the same loop in a raw tbb::parallel_for: how much of
//                       the machine the launcher gives a compute kernel (no target; the kernel API's
//                       add operator is measured in kernel_ops_bench).
// Run with --benchmark_repetitions=5 so that the ratios compare medians.
#include <cstdint>
#include <cstring>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "acl/acl.h"
#include "canopy/kernel/launch.h"
#include "acl_runtime.h"
#include "driver.h"

extern "C" void bench_empty_kernel() {}

constexpr std::uint32_t vector_blocks = 1024;
constexpr std::size_t vector_length = std::size_t{16} << 20;
constexpr std::size_t block_length = vector_length / vector_blocks;

extern "C" void bench_vector_add(std::uint8_t* x, std::uint8_t* y, std::uint8_t* z) {
    const auto* a = reinterpret_cast<const float*>(x) + block_length * block_idx;
    const auto* b = reinterpret_cast<const float*>(y) + block_length * block_idx;
    auto* c = reinterpret_cast<float*>(z) + block_length * block_idx;
    for (std::size_t i = 0; i < block_length; ++i) c[i] = a[i] + b[i];
}

namespace {

void check(aclError error, benchmark::State& state) {
    if (error != ACL_SUCCESS) state.SkipWithError(aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "acl call failed");
}


void nothing(void*) {}

void host_task_round_trip(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    for (auto _ : state) {
        check(aclrtLaunchHostFunc(stream, nothing, nullptr), state);
        check(aclrtSynchronizeStream(stream), state);
    }
}
BENCHMARK(host_task_round_trip)->Name("kernel_1_block/baseline");

void launch_1_block(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    for (auto _ : state) {
        check(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(bench_empty_kernel)(1, stream)), state);
        check(aclrtSynchronizeStream(stream), state);
    }
}
BENCHMARK(launch_1_block)->Name("kernel_1_block/canopy");

// What a block costs at the least: one call of a kernel the compiler cannot see into.
void (*volatile empty_block)() = bench_empty_kernel;

void raw_parallel_for_1024(benchmark::State& state) {
    canopy::bench::acl_runtime();  // the same process state as the Canopy case (TBB's global thread limit)
    for (auto _ : state) {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint32_t>(0, 1024),
                                  [](const oneapi::tbb::blocked_range<std::uint32_t>& range) {
                                      for (std::uint32_t i = range.begin(); i != range.end(); ++i) empty_block();
                                  });
    }
}
BENCHMARK(raw_parallel_for_1024)->Name("kernel_1024_blocks/baseline");

void launch_1024_blocks(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    for (auto _ : state) {
        check(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(bench_empty_kernel)(1024, stream)), state);
        check(aclrtSynchronizeStream(stream), state);
    }
}
BENCHMARK(launch_1024_blocks)->Name("kernel_1024_blocks/canopy");

struct Vectors {
    Vectors() {
        const std::size_t bytes = vector_length * sizeof(float);
        for (void** p : {&x, &y, &z}) aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        std::vector<float> values(vector_length, 1.0f);
        aclrtMemcpy(x, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemcpy(y, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemset(z, bytes, 0, bytes);
    }
    void* x = nullptr;
    void* y = nullptr;
    void* z = nullptr;
};

Vectors& vectors() {
    canopy::bench::acl_runtime();
    static Vectors instance;
    return instance;
}

void raw_vector_add(benchmark::State& state) {
    Vectors& v = vectors();
    for (auto _ : state) {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::uint32_t>(0, vector_blocks),
                                  [&](const oneapi::tbb::blocked_range<std::uint32_t>& range) {
                                      for (std::uint32_t block = range.begin(); block != range.end(); ++block) {
                                          const auto* a = static_cast<const float*>(v.x) + block_length * block;
                                          const auto* b = static_cast<const float*>(v.y) + block_length * block;
                                          auto* c = static_cast<float*>(v.z) + block_length * block;
                                          for (std::size_t i = 0; i < block_length; ++i) c[i] = a[i] + b[i];
                                      }
                                  });
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * vector_length * 3 * sizeof(float)));
}
BENCHMARK(raw_vector_add)->Name("plain_kernel_vector_add_16M/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

void launch_vector_add(benchmark::State& state) {
    Vectors& v = vectors();
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    for (auto _ : state) {
        check(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(bench_vector_add)(vector_blocks, stream, v.x, v.y, v.z)), state);
        check(aclrtSynchronizeStream(stream), state);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * vector_length * 3 * sizeof(float)));
}
BENCHMARK(launch_vector_add)->Name("plain_kernel_vector_add_16M/canopy")->Unit(benchmark::kMillisecond)->UseRealTime();

const bool targets = [] {
    canopy::bench::register_target("kernel_1_block", 1.5);
    canopy::bench::register_target("kernel_1024_blocks", 1.5);
    return true;
}();

}  // namespace
