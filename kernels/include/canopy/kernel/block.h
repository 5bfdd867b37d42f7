#pragma once
// The block a kernel body is running as. The launcher sets it on the worker thread before it calls
// the kernel for a block; the kernel API (kernel_operator.h) reads it for GetBlockIdx(), the UB
// arena and error reports.
#include <cstddef>
#include <cstdint>
#include <string>

// libascendcl hides its symbols by default; what kernel code compiled outside it calls is exported.
#define CANOPY_KERNEL_API __attribute__((visibility("default")))

namespace canopy::kernel {

// The blocks of a cooperative launch, which all run at once (one thread each) so that SyncAll can
// make them wait for each other. Defined by the launcher.
class CooperativeGroup;

// A block's vector-unit registers (the mask, its mode, the compare mask, the reduction results), set
// by the kernel API (canopy/kernel/ascendc/vector_unit.h) and reset before every block runs.
struct VectorRegisters {
    std::uint64_t mask[2] = {~std::uint64_t(0), ~std::uint64_t(0)};  // low, high
    bool counter_mode = false;
    std::uint64_t compare_mask[2] = {0, 0};
    double reduce_value = 0;
    std::uint32_t reduce_index = 0;
};

// The registers of a core that kernels set and that outlive one instruction (DataCopyPad's pad
// value, the atomic mode of copies into GM), set by the kernel API (canopy/kernel/ascendc/system.h)
// and reset before every block runs.
struct CoreRegisters {
    std::uint64_t pad_value = 0;
    std::uint8_t atomic_operation = 0;  // AtomicOperation: none, add, max, min
    std::uint8_t atomic_element = 0;    // AtomicElement: the type SetAtomic<Op><T> named
};

// Core types of the separated architecture (AscendC::AIC / AIV).
inline constexpr std::int32_t core_type_aic = 1;
inline constexpr std::int32_t core_type_aiv = 2;

// The cores one logical block of a kernel runs on, from its function qualifier: __vector__ (or
// none) one AIV, __cube__ one AIC, __mix__(aic, aiv) `aic` AICs and `aiv` AIVs. Only a __mix__
// kernel starts the scheduler CrossCoreSetFlag / CrossCoreWaitFlag report to.
struct KernelCores {
    std::uint8_t aic = 0;
    std::uint8_t aiv = 1;
    bool mix = false;
    constexpr std::uint32_t per_block() const { return std::uint32_t{aic} + aiv; }
};

// The places of the fixed-size __ubuf__ arrays a block declared (canopy/kernel/ub_array.h): the
// declaration site of each and its UB byte offset, and the static region's first free byte. Reset
// before every block runs.
struct UbArrays {
    static constexpr std::uint32_t max_sites = 64;
    std::uint32_t count = 0;
    std::uint32_t top = 0;
    const void* sites[max_sites];
    std::uint32_t offsets[max_sites];
};

// Per-block bookkeeping of the pipe model (kernels/src/pipe_model.cpp, canopy/kernel/pipes.h) and of
// the moves MTE2 has not landed yet (kernels/src/deferred_moves.cpp, canopy/kernel/deferred_moves.h).
struct PipeCounters;
struct DeferredMoves;

struct BlockContext {
    std::int64_t index = 0;
    std::int64_t count = 0;
    std::byte* ub = nullptr;        // this block's Unified Buffer: 32-byte aligned, reused across blocks
    std::size_t ub_bytes = 0;       // configured UB size plus the launch's dynUBufSize
    std::size_t ub_dynamic_bytes = 0;  // the launch's dynUBufSize: the last bytes of `ub` (ub_array.h)
    const char* kernel = nullptr;   // kernel name, for error messages
    // A misuse found where throwing is not possible (a destructor, such as TPipe's finding buffers
    // still held at kernel end). The launcher checks it when the block returns.
    int deferred_code = 0;
    std::string deferred_message;
    // Set when every block of the launch runs at once (a cooperative launch); nullptr when blocks
    // run block-parallel, a few at a time, on the device's workers.
    CooperativeGroup* group = nullptr;
    VectorRegisters vector;
    CoreRegisters registers;
    // Which core of its logical core this block runs on: a plain __vector__ or __cube__ kernel
    // runs one core per block; a __mix__ kernel's blocks have an AIC and task_ratio AIVs. `index`
    // is the logical core's (the block_idx builtin); GetBlockIdx() on an AIV of a mix kernel is
    // index * task_ratio + sub_block_idx. An AIC has no Unified Buffer (ub is nullptr there).
    std::int32_t core_type = core_type_aiv;
    std::int64_t sub_block_idx = 0;
    std::int64_t task_ratio = 1;
    KernelCores cores;
    UbArrays ub_arrays;
    // The running block's pipes and the order between them; owned by the launcher.
    PipeCounters* pipes = nullptr;  // a PipeState (kernels/src/pipe_model.h)
    DeferredMoves* moves = nullptr;
    // Float results saturate instead of overflowing to inf / NaN: the stream's float mode
    // (aclrtSetDeviceSatMode when it was created) is ACL_RT_OVERFLOW_MODE_SATURATION.
    bool saturates = false;
    // The stream has overflow detection on (aclrtSetStreamOverflowSwitch).
    bool detects_overflow = false;
};

namespace detail {
// The thread's running block, set on the thread's first use. Initial-exec, as deferred_move_count:
// every kernel API call reads it, and inline it is one load where a call into the library was most
// of the cost of a queue operation. __thread rather than thread_local: a thread_local declared
// extern is read through a test of whether some unit defines a dynamic initializer for it, on
// every access; __thread variables have none.
extern CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread BlockContext* running_block;
CANOPY_KERNEL_API BlockContext& first_use_of_running_block();
}  // namespace detail

// The running block; only valid inside a kernel launched by the launcher.
inline BlockContext& current_block() {
    if (BlockContext* block = detail::running_block) [[likely]] return *block;
    return detail::first_use_of_running_block();
}

// Thrown by the kernel API when a kernel misuses it (the checks of CANN's CPU debug mode). The
// launcher catches it, stops the launch and fails the stream with `code` (ACL_ERROR_RT_AICORE_EXCEPTION,
// or ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW / _WRITE_OVERFLOW for out-of-bounds global memory), with a
// message naming the kernel, the block, the API and the sizes.
struct KernelFault {
    int code;
    std::string message;
};

// Throws KernelFault{code, "<api>: <detail>"}; the launcher prefixes kernel name and block.
[[noreturn]] CANOPY_KERNEL_API void raise(int code, const char* api, const std::string& detail);
// Records the first deferred fault of the block without throwing.
CANOPY_KERNEL_API void defer_fault(int code, const char* api, const std::string& detail);

// AscendC::SyncAll(): waits until every block of the launch has called it. Only a cooperative launch
// runs all its blocks at once; in a block-parallel launch of more than one block the blocks that
// have not started yet can only start once running blocks return, so waiting would hang: there it
// raises ACL_ERROR_RT_AICORE_EXCEPTION naming SyncAll instead. A kernel becomes cooperative when the
// kernel compiler finds that it reaches SyncAll, or with CANOPY_REGISTER_COOPERATIVE_KERNEL.
CANOPY_KERNEL_API void sync_all();

// For kernels that wait for another block through global memory (IBWait, IBSet): raises the same
// error as SyncAll unless every block of the launch runs at once, and, once waiting, unwinds the
// block when another block of its cooperative launch has failed. `api` names the caller.
CANOPY_KERNEL_API void require_blocks_at_once(const char* api);
CANOPY_KERNEL_API void poll_other_blocks();

// AscendC::CrossCoreSetFlag<mode, pipe>(flag) / CrossCoreWaitFlag(flag) (canopy/kernel/ascendc/
// cross_core.h): the A2's cross-core flags of a __mix__ kernel. Every core has a counter per flag
// id (0-15, at most 15); a set reports to the scheduler, which raises the counters of the cores
// it concerns once every core the mode names has reported (mode 0: all cores of the caller's type
// in the launch; 1: the AIVs of the caller's logical core; 2: from the AIC to each AIV of its
// logical core, or from all those AIVs to their AIC); a wait blocks until its own counter is
// non-zero and takes one. A wait that can never return (every other core of the launch has
// returned or waits too) fails the launch instead of hanging it.
CANOPY_KERNEL_API void cross_core_set_flag(int mode, int pipe, std::uint16_t flag);
CANOPY_KERNEL_API void cross_core_wait_flag(std::uint16_t flag);

}  // namespace canopy::kernel

// Ascend C's block globals: thread-local here, since blocks run concurrently on worker threads.
extern CANOPY_KERNEL_API thread_local std::int64_t block_idx;
extern CANOPY_KERNEL_API thread_local std::int64_t block_num;
