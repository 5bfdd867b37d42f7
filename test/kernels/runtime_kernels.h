#pragma once
// Kernels of the runtime-control tests (resource limits, utilization, overflow detection, exception
// callbacks) and the host functions that launch them with <<<>>>, compiled by canopy_add_kernels.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "kernel_shim.h"

// Shared by the blocks of a concurrency_probe launch.
struct ConcurrencyProbe {
    std::atomic<uint32_t> running{0};
    std::atomic<uint32_t> max_running{0};
    std::atomic<uint32_t> blocks_done{0};
    uint32_t wanted = 0;  // a block lingers (a bounded number of yields) until this many run with it
};

// One block of a concurrency probe: counts itself in, records the peak, and lingers (at most 5 ms:
// a count of yields takes minutes on a loaded machine) so that blocks allowed to run together do; the
// verdict never depends on how long.
inline void run_concurrency_probe(ConcurrencyProbe* probe) {
    const uint32_t now = probe->running.fetch_add(1) + 1;
    uint32_t seen = probe->max_running.load();
    while (now > seen && !probe->max_running.compare_exchange_weak(seen, now)) {}
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
    while (probe->running.load() < probe->wanted && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    probe->running.fetch_sub(1);
    probe->blocks_done.fetch_add(1);
}

// Held by the blocks of a holding_kernel launch until the host releases them.
struct Hold {
    std::atomic<uint32_t> entered{0};
    std::atomic<bool> released{false};
};

extern "C" {
__global__ __aicore__ void concurrency_probe(ConcurrencyProbe* probe);
__global__ __aicore__ void holding_kernel(Hold* hold);
// out[block] = in[block] * factor * factor, in fp32.
__global__ __aicore__ void square_scale(float* in, float* out, float factor);
// Raises a KernelFault in every block (as the kernel API does on misuse).
__global__ __aicore__ void always_faulting();
}

uint32_t launch_concurrency_probe(uint32_t numBlocks, void* stream, ConcurrencyProbe* probe);
uint32_t launch_holding(uint32_t numBlocks, void* stream, Hold* hold);
uint32_t launch_square_scale(uint32_t numBlocks, void* stream, float* in, float* out, float factor);
uint32_t launch_always_faulting(uint32_t numBlocks, void* stream);
