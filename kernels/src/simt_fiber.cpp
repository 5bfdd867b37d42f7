// The SIMT runtime (canopy/kernel/simt/simt.h): a block's threads as fibers on the worker that runs
// the block.
//
// Fibers: a hand-written context switch saves the callee-saved registers and the stack pointer on
// x86-64 (the floating-point control words too); other architectures use ucontext. Stacks come from a
// per-worker pool (mmap'd, with a guard page below) and are reused by every block the worker runs.
// A fiber runs threads in turn (next unstarted thread, as a plain call) until a thread waits; the
// scheduler, on the worker's own stack, then resumes a runnable fiber or starts another fiber on the
// next unstarted thread. A block of threads that never wait therefore runs on one fiber, one call per
// thread.
//
// Sanitizers: every switch is announced to AddressSanitizer (__sanitizer_start_switch_fiber /
// __sanitizer_finish_switch_fiber) and ThreadSanitizer (__tsan_create_fiber / __tsan_switch_to_fiber
// / __tsan_destroy_fiber) when the build uses them, so that neither mistakes a fiber's stack for a
// stack overflow or a race.
#include "canopy/kernel/simt/simt.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CANOPY_SIMT_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define CANOPY_SIMT_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(CANOPY_SIMT_ASAN)
#define CANOPY_SIMT_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(CANOPY_SIMT_TSAN)
#define CANOPY_SIMT_TSAN 1
#endif

#ifdef CANOPY_SIMT_ASAN
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, std::size_t* size_old);
}
#endif
#ifdef CANOPY_SIMT_TSAN
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
}
#endif

#if defined(__x86_64__)
// canopy_simt_switch(void** save, void* to): pushes the callee-saved registers and the x87 / SSE
// control words, stores the stack pointer in *save, switches to `to` and pops the same from there.
// A new fiber's stack holds that frame with canopy_simt_start as the return address, r12 = its
// argument and r13 = the function to call.
asm(R"(
    .text
    .globl canopy_simt_switch
    .hidden canopy_simt_switch
    .type canopy_simt_switch,@function
canopy_simt_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size canopy_simt_switch,.-canopy_simt_switch

    .globl canopy_simt_start
    .hidden canopy_simt_start
    .type canopy_simt_start,@function
canopy_simt_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size canopy_simt_start,.-canopy_simt_start
)");
extern "C" void canopy_simt_switch(void** save, void* to);
extern "C" void canopy_simt_start();
#else
#include <ucontext.h>
#endif

__thread dim3 threadIdx{0, 0, 0};
__thread dim3 blockIdx{0, 0, 0};
__thread dim3 blockDim{0, 0, 0};
__thread dim3 gridDim{0, 0, 0};

namespace canopy::kernel::simt {

namespace detail {
__thread ThreadState* running_thread = nullptr;
__thread Shape* running_shape = nullptr;

void outside_simt(const char* api) {
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "called outside a SIMT kernel or __simt_vf__ function");
}
}  // namespace detail

namespace {

constexpr std::size_t stack_bytes = 256 * 1024;  // per fiber; untouched pages cost nothing
constexpr std::size_t guard_bytes = 4096;

struct Block;

struct Fiber {
    void* sp = nullptr;  // saved stack pointer (x86-64)
#if !defined(__x86_64__)
    ucontext_t context;
#endif
    std::byte* memory = nullptr;  // mapping: guard page, then the stack
    Block* block = nullptr;
    ThreadState thread;
    bool holding = false;       // runs (or waits in) a thread
    const char* waits = nullptr;  // what the held thread waits at
#ifdef CANOPY_SIMT_TSAN
    void* tsan = nullptr;
#endif
};

struct Warp {
    std::uint32_t lanes = 0;     // lanes of this warp in the block
    std::uint32_t live = 0;      // lanes that have not exited
    std::uint32_t arrived = 0;
    std::uint32_t active = 0;    // lanes that arrived in the current round
    std::uint32_t round = 0;
    std::uint64_t values[2][warp_size] = {};
    std::uint32_t masks[2] = {};
    std::vector<Fiber*> waiters;
};

struct Block {
    const char* api;
    const char* kernel;
    std::int64_t block_index;
    Shape shape;
    std::uint32_t count;
    ThreadBatch batch;
    const void* body;
    ThreadLoop loop;
    std::uint32_t arrived = 0;  // at the block barrier
    std::vector<Fiber*> barrier_waiters;
    // Warps' collective state, made when a warp collective first runs (most kernels have none).
    std::vector<Warp> warps;
    std::vector<Fiber*> runnable;  // a queue: runnable[runnable_head..]
    std::size_t runnable_head = 0;
    std::exception_ptr error;
    bool failed = false;
};

// The worker's scheduler context and its pool of idle fibers.
struct Worker {
    void* scheduler_sp = nullptr;
#if !defined(__x86_64__)
    ucontext_t scheduler_context;
#endif
#ifdef CANOPY_SIMT_TSAN
    void* tsan_scheduler = nullptr;
#endif
#ifdef CANOPY_SIMT_ASAN
    const void* scheduler_stack_bottom = nullptr;
    std::size_t scheduler_stack_size = 0;
#endif
    std::vector<Fiber*> idle;
    Fiber* current = nullptr;
    Block* block = nullptr;
    ~Worker() {
        for (Fiber* fiber : idle) release(fiber);
    }
    static void release(Fiber* fiber) {
#ifdef CANOPY_SIMT_TSAN
        if (fiber->tsan) __tsan_destroy_fiber(fiber->tsan);
#endif
        munmap(fiber->memory, guard_bytes + stack_bytes);
        delete fiber;
    }
};

thread_local Worker worker;

[[noreturn]] void fiber_main(Fiber* fiber);

// Switches from the scheduler to `fiber`.
void enter(Fiber* fiber) {
    Worker& w = worker;
    w.current = fiber;
    detail::running_thread = &fiber->thread;
    threadIdx = fiber->thread.thread_idx;
#ifdef CANOPY_SIMT_TSAN
    if (w.tsan_scheduler == nullptr) w.tsan_scheduler = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(fiber->tsan, 0);
#endif
#ifdef CANOPY_SIMT_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, fiber->memory + guard_bytes, stack_bytes);
#endif
#if defined(__x86_64__)
    canopy_simt_switch(&w.scheduler_sp, fiber->sp);
#else
    swapcontext(&w.scheduler_context, &fiber->context);
#endif
#ifdef CANOPY_SIMT_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    w.current = nullptr;
    detail::running_thread = nullptr;
}

// Switches from the running fiber back to the scheduler.
void leave(Fiber* fiber) {
    Worker& w = worker;
#ifdef CANOPY_SIMT_TSAN
    __tsan_switch_to_fiber(w.tsan_scheduler, 0);
#endif
#ifdef CANOPY_SIMT_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, w.scheduler_stack_bottom, w.scheduler_stack_size);
#endif
#if defined(__x86_64__)
    canopy_simt_switch(&fiber->sp, w.scheduler_sp);
#else
    swapcontext(&fiber->context, &w.scheduler_context);
#endif
#ifdef CANOPY_SIMT_ASAN
    __sanitizer_finish_switch_fiber(fake, &w.scheduler_stack_bottom, &w.scheduler_stack_size);
#endif
    detail::running_thread = &fiber->thread;
}

#if !defined(__x86_64__)
void fiber_entry_trampoline(unsigned high, unsigned low) {
    fiber_main(reinterpret_cast<Fiber*>((static_cast<std::uintptr_t>(high) << 32) | low));
}
#endif

Fiber* new_fiber() {
    void* memory = mmap(nullptr, guard_bytes + stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SIMT", "cannot map a thread's stack");
    mprotect(memory, guard_bytes, PROT_NONE);
    auto* fiber = new Fiber;
    fiber->memory = static_cast<std::byte*>(memory);
    std::byte* top = fiber->memory + guard_bytes + stack_bytes;
#if defined(__x86_64__)
    auto* frame = reinterpret_cast<std::uint64_t*>(top - 64);
    std::uint32_t mxcsr = 0x1F80;
    std::uint16_t fpucw = 0x037F;
    std::memcpy(&frame[0], &mxcsr, 4);
    std::memcpy(reinterpret_cast<std::byte*>(&frame[0]) + 4, &fpucw, 2);
    frame[1] = 0;                                          // r15
    frame[2] = 0;                                          // r14
    frame[3] = reinterpret_cast<std::uint64_t>(&fiber_main);  // r13: the function
    frame[4] = reinterpret_cast<std::uint64_t>(fiber);     // r12: its argument
    frame[5] = 0;                                          // rbx
    frame[6] = 0;                                          // rbp
    frame[7] = reinterpret_cast<std::uint64_t>(&canopy_simt_start);
    fiber->sp = frame;
#else
    getcontext(&fiber->context);
    fiber->context.uc_stack.ss_sp = fiber->memory + guard_bytes;
    fiber->context.uc_stack.ss_size = stack_bytes;
    fiber->context.uc_link = nullptr;
    const auto address = reinterpret_cast<std::uintptr_t>(fiber);
    makecontext(&fiber->context, reinterpret_cast<void (*)()>(&fiber_entry_trampoline), 2,
                static_cast<unsigned>(address >> 32), static_cast<unsigned>(address & 0xffffffffu));
#endif
#ifdef CANOPY_SIMT_TSAN
    fiber->tsan = __tsan_create_fiber(0);
#endif
    return fiber;
}

std::string thread_name(const ThreadState& t) {
    return "thread " + std::to_string(t.linear) + " (threadIdx " + std::to_string(t.thread_idx.x) + "," +
           std::to_string(t.thread_idx.y) + "," + std::to_string(t.thread_idx.z) + ")";
}

ThreadState thread_at(std::uint32_t linear, dim3 dims) {
    ThreadState t;
    t.linear = linear;
    t.thread_idx = dim3(linear % dims.x, (linear / dims.x) % dims.y, linear / (dims.x * dims.y));
    return t;
}

// Records the block's fault, which run_block raises on the worker's own stack. It returns, so that
// the caller's temporaries (the message) are destroyed before abandon_fiber leaves the frame for good.
void record_block_failure(Fiber* fiber, const char* api, const std::string& detail) {
    Block& block = *fiber->block;
    try {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, detail);
    } catch (...) {
        if (!block.failed) block.error = std::current_exception();
    }
    block.failed = true;
    block.loop.failed = true;
}

// Leaves a failed block's fiber for good: its frames are never resumed nor unwound.
[[noreturn]] void abandon_fiber(Fiber* fiber) {
    fiber->holding = true;  // its stack holds this frame: released, never reused
    for (;;) leave(fiber);  // never resumed: the scheduler stops the block
}

// The current thread waits until another thread makes its fiber runnable again.
void wait(Fiber* fiber, const char* what) {
    fiber->waits = what;
    leave(fiber);
    fiber->waits = nullptr;
    if (fiber->block->failed) {
        for (;;) leave(fiber);
    }
}

void thread_exits(Fiber* fiber) {
    Block& block = *fiber->block;
    if (block.arrived > 0) {
        record_block_failure(fiber, "asc_syncthreads",
                             thread_name(fiber->thread) + " returned while " + std::to_string(block.arrived) +
                                 " threads of its block wait at asc_syncthreads: a block barrier must be reached by every thread");
        abandon_fiber(fiber);
    }
    if (block.warps.empty()) return;
    Warp& warp = block.warps[fiber->thread.linear / warp_size];
    --warp.live;
    if (warp.arrived > 0 && warp.arrived == warp.live) {
        // The lanes still live have all arrived: the collective completes without this lane.
        const std::uint32_t slot = warp.round & 1;
        warp.masks[slot] = warp.active;
        ++warp.round;
        warp.arrived = 0;
        warp.active = 0;
        for (Fiber* waiter : warp.waiters) block.runnable.push_back(waiter);
        warp.waiters.clear();
    }
}

void fiber_main(Fiber* fiber) {
#ifdef CANOPY_SIMT_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &worker.scheduler_stack_bottom, &worker.scheduler_stack_size);
#endif
    for (;;) {
        Block* block = fiber->block;
        fiber->holding = true;
        try {
            block->batch(block->body, block->loop, fiber->thread);
            fiber->holding = false;
        } catch (...) {
            if (!block->failed) block->error = std::current_exception();
            block->failed = true;
            block->loop.failed = true;
            fiber->holding = false;
        }
        // Idle: back to the pool; the scheduler hands this fiber a block again.
        leave(fiber);
    }
}

Fiber* running_fiber(const char* api) {
    Fiber* fiber = worker.current;
    if (fiber == nullptr) detail::outside_simt(api);
    return fiber;
}

}  // namespace

void thread_exited_slow(ThreadLoop& loop, const ThreadState& state) {
    static_cast<void>(loop);
    static_cast<void>(state);
    thread_exits(running_fiber("SIMT"));
}

void run_block(const char* api, dim3 grid, dim3 threads, ThreadBatch batch, const void* body) {
    const std::uint64_t count = std::uint64_t(threads.x) * threads.y * threads.z;
    BlockContext& ctx = current_block();
    if (threads.x == 0 || threads.y == 0 || threads.z == 0 || count > max_threads) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, api,
              "a block has " + std::to_string(threads.x) + "x" + std::to_string(threads.y) + "x" +
                  std::to_string(threads.z) + " threads; the Ascend 950 runs 1 to " + std::to_string(max_threads) +
                  " threads per block");
    }
    if (worker.block != nullptr) raise(ACL_ERROR_RT_AICORE_EXCEPTION, api, "a SIMT thread cannot start SIMT threads");
    Block block{};
    block.api = api;
    block.kernel = ctx.kernel;
    block.block_index = ctx.index;
    const auto index = static_cast<std::uint64_t>(ctx.index);
    block.shape.grid = grid;
    block.shape.block = threads;
    block.shape.block_idx = dim3(static_cast<std::uint32_t>(index % grid.x), static_cast<std::uint32_t>((index / grid.x) % grid.y),
                                 static_cast<std::uint32_t>(index / (std::uint64_t(grid.x) * grid.y)));
    block.count = static_cast<std::uint32_t>(count);
    block.batch = batch;
    block.body = body;
    block.loop.count = block.count;
    block.loop.dims = threads;
    Shape* saved_shape = detail::running_shape;
    detail::running_shape = &block.shape;
    const dim3 saved[4] = {threadIdx, blockIdx, blockDim, gridDim};
    blockIdx = block.shape.block_idx;
    blockDim = block.shape.block;
    gridDim = block.shape.grid;
    worker.block = &block;
    std::vector<Fiber*> used;
    struct Restore {
        Shape* shape;
        const dim3* builtins;
        ~Restore() {
            detail::running_shape = shape;
            worker.block = nullptr;
            threadIdx = builtins[0];
            blockIdx = builtins[1];
            blockDim = builtins[2];
            gridDim = builtins[3];
        }
    } restore{saved_shape, saved};
    std::string deadlock;
    for (;;) {
        if (block.failed) break;
        Fiber* fiber = nullptr;
        if (block.runnable_head < block.runnable.size()) {
            fiber = block.runnable[block.runnable_head++];
            if (block.runnable_head == block.runnable.size()) {
                block.runnable.clear();
                block.runnable_head = 0;
            }
        } else if (block.loop.next < block.count && !block.loop.failed) {
            if (worker.idle.empty()) {
                fiber = new_fiber();
            } else {
                fiber = worker.idle.back();
                worker.idle.pop_back();
            }
            fiber->block = &block;
            used.push_back(fiber);
        } else {
            // Nothing can run: either every thread returned, or the rest wait for ever.
            for (Fiber* f : used) {
                if (f->waits != nullptr) {
                    deadlock = thread_name(f->thread) + " waits at " + (f->waits ? f->waits : "?");
                    break;
                }
            }
            break;
        }
        enter(fiber);
    }
    // Fibers that hold a thread's frames (the block failed) cannot be resumed: their stacks go.
    for (Fiber* fiber : used) {
        if (fiber->holding) Worker::release(fiber);
        else worker.idle.push_back(fiber);
    }
    if (block.error) std::rethrow_exception(block.error);
    if (!deadlock.empty()) {
        raise(ACL_ERROR_RT_AICORE_EXCEPTION, "SIMT",
              "deadlock: every live thread of the block waits and none can proceed; " + deadlock +
                  (block.loop.exited > 0 ? " (" + std::to_string(block.loop.exited) + " threads had returned)" : std::string()));
    }
}

void sync_threads() {
    Fiber* fiber = running_fiber("asc_syncthreads");
    Block& block = *fiber->block;
    block.loop.waited = true;
    if (block.loop.exited > 0) {
        record_block_failure(fiber, "asc_syncthreads",
                             thread_name(fiber->thread) + " waits at asc_syncthreads, but " +
                                 thread_name(thread_at(block.loop.first_exited, block.shape.block)) +
                                 (block.loop.exited > 1 ? " and " + std::to_string(block.loop.exited - 1) + " other threads"
                                                        : std::string()) +
                                 " of its block returned without reaching it: a block barrier must be reached by every thread");
        abandon_fiber(fiber);
    }
    if (++block.arrived == block.count) {
        block.arrived = 0;
        for (Fiber* waiter : block.barrier_waiters) block.runnable.push_back(waiter);
        block.barrier_waiters.clear();
        return;
    }
    block.barrier_waiters.push_back(fiber);
    wait(fiber, "asc_syncthreads");
}

WarpValues warp_exchange(const char* api, std::uint64_t value) {
    Fiber* fiber = running_fiber(api);
    Block& block = *fiber->block;
    block.loop.waited = true;
    if (block.warps.empty()) {
        block.warps.resize((block.count + warp_size - 1) / warp_size);
        for (std::size_t i = 0; i < block.warps.size(); ++i) {
            const std::uint32_t lanes = std::min<std::uint32_t>(warp_size, block.count - std::uint32_t(i) * warp_size);
            block.warps[i].lanes = lanes;
            block.warps[i].live = lanes - block.loop.exited_in_warp[i];
        }
    }
    Warp& warp = block.warps[fiber->thread.linear / warp_size];
    const std::uint32_t lane = fiber->thread.linear % warp_size;
    const std::uint32_t slot = warp.round & 1;
    if (warp.arrived == 0) {
        for (std::uint64_t& v : warp.values[slot]) v = 0;
    }
    warp.values[slot][lane] = value;
    warp.active |= 1u << lane;
    if (++warp.arrived == warp.live) {
        warp.masks[slot] = warp.active;
        ++warp.round;
        warp.arrived = 0;
        warp.active = 0;
        for (Fiber* waiter : warp.waiters) block.runnable.push_back(waiter);
        warp.waiters.clear();
    } else {
        warp.waiters.push_back(fiber);
        wait(fiber, api);
    }
    return WarpValues{warp.values[slot], warp.masks[slot], warp.lanes};
}

}  // namespace canopy::kernel::simt
