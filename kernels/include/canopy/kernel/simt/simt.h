#pragma once
// Canopy's SIMT runtime, the model behind CANN's simt_api (include/simt_api/*.h): the Ascend 950's
// vector cores run SIMT code, up to 1024 threads per block in warps of 32. Here a block's threads are
// user-space fibers on the worker thread that runs the block (kernels/src/simt_fiber.cpp), never an OS
// thread per lane. A fiber runs threads one after another as plain calls until one of them waits (a
// barrier, a warp collective); only then does another fiber take the next thread, so a kernel without
// barriers costs one call per thread. A barrier or a warp collective that cannot complete (a thread
// exited without reaching it, every thread waits) fails the launch naming kernel, block and thread.
#include <cstddef>
#include <cstdint>

#include "canopy/kernel/block.h"

// CUDA's dim3, as CANN's simt_api spells it (device_types.h): the shape of a grid or of a block.
struct dim3 {
    std::uint32_t x = 1;
    std::uint32_t y = 1;
    std::uint32_t z = 1;
    constexpr dim3(std::uint32_t vx = 1, std::uint32_t vy = 1, std::uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};

// The SIMT builtins, as bisheng --enable-simt predefines them (a kernel source may use them without
// including simt_api). Thread-local, as block_idx is: every fiber switch and every thread the
// running fiber starts sets threadIdx, and a block sets the other three while it runs. A member or
// local of the same name (a tiling's blockDim) hides them, as it would hide bisheng's.
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread dim3 threadIdx;
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread dim3 blockIdx;
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread dim3 blockDim;
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread dim3 gridDim;
inline constexpr std::int32_t warpSize = 32;

namespace canopy::kernel::simt {

// Threads of one block on a 950 vector core: blockDim.x * y * z <= 2048 (1024 unless the function
// declares __launch_bounds__ up to 2048, which bisheng checks at compile time).
inline constexpr std::uint32_t max_threads = 2048;
inline constexpr std::uint32_t warp_size = 32;

// The running SIMT thread: its index in the block and the block's shape.
struct ThreadState {
    dim3 thread_idx;
    std::uint32_t linear = 0;  // x + y*bx + z*bx*by
};
struct Shape {
    dim3 grid;
    dim3 block;
    dim3 block_idx;
};

namespace detail {
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread ThreadState* running_thread;
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread Shape* running_shape;
[[noreturn]] CANOPY_KERNEL_API void outside_simt(const char* api);
}  // namespace detail

inline const ThreadState& thread() {
    if (ThreadState* t = detail::running_thread) [[likely]] return *t;
    detail::outside_simt("threadIdx");
}
inline const Shape& shape() {
    if (Shape* s = detail::running_shape) [[likely]] return *s;
    detail::outside_simt("blockIdx / blockDim / gridDim");
}

// The part of a running SIMT block that the per-thread loop reads and writes, inline in the
// kernel's own code (run_threads), so that a kernel without barriers runs as a plain loop over its
// threads with the body inlined.
struct ThreadLoop {
    std::uint32_t next = 0;   // the next thread to start
    std::uint32_t count = 0;  // threads in the block
    dim3 next_idx{0, 0, 0};   // its threadIdx
    dim3 dims;                // blockDim
    std::uint32_t exited = 0;
    std::uint32_t first_exited = 0;  // the first thread that returned, once exited > 0
    bool failed = false;
    bool waited = false;      // a barrier or warp collective has run: exits take thread_exited_slow
    std::uint16_t exited_in_warp[max_threads / warp_size] = {};
};

// Runs threads of the block on the calling fiber, one after another, until none is left to start.
using ThreadBatch = void (*)(const void* body, ThreadLoop& loop, ThreadState& state);

// Runs one SIMT block of `threads` threads on the calling worker: `batch(body, ...)` on fibers, with
// blockIdx taken from the running block (current_block()) laid out over `grid`. `api` names the
// launch form in errors. Returns when every thread has returned; a thread's fault, an unreachable
// barrier or a deadlock raise a KernelFault naming the thread.
CANOPY_KERNEL_API void run_block(const char* api, dim3 grid, dim3 threads, ThreadBatch batch, const void* body);
// A thread returned while barriers or collectives were in use: the checks of thread_exited.
CANOPY_KERNEL_API void thread_exited_slow(ThreadLoop& loop, const ThreadState& state);

template <class Body>
void thread_batch(const void* body, ThreadLoop& loop, ThreadState& state) {
    const Body& run = *static_cast<const Body*>(body);
    while (loop.next < loop.count && !loop.failed) {
        // threadIdx steps through x, then y, then z (no divisions: this runs once per thread).
        state.linear = loop.next++;
        state.thread_idx = loop.next_idx;
        threadIdx = loop.next_idx;
        if (++loop.next_idx.x == loop.dims.x) {
            loop.next_idx.x = 0;
            if (++loop.next_idx.y == loop.dims.y) {
                loop.next_idx.y = 0;
                ++loop.next_idx.z;
            }
        }
        run();
        if (loop.exited++ == 0) loop.first_exited = state.linear;
        ++loop.exited_in_warp[state.linear / warp_size];
        if (loop.waited) thread_exited_slow(loop, state);
    }
}

// Template front end: a callable run by every thread.
template <class Body>
void run_threads(const char* api, dim3 grid, dim3 threads, const Body& body) {
    run_block(api, grid, threads, &thread_batch<Body>, &body);
}

// asc_syncthreads(): waits until every thread of the block has called it.
CANOPY_KERNEL_API void sync_threads();

// A warp collective: every live lane of the caller's warp deposits `value`; once all have, each
// lane gets the warp's 32 values (lanes that exited read as 0) and the mask of lanes that took part.
struct WarpValues {
    const std::uint64_t* values;
    std::uint32_t active;  // bit i: lane i took part
    std::uint32_t lanes;   // lanes in this warp (the last warp of a block may have fewer than 32)
};
CANOPY_KERNEL_API WarpValues warp_exchange(const char* api, std::uint64_t value);

}  // namespace canopy::kernel::simt

