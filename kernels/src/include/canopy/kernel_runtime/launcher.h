#pragma once
// The block-parallel launcher: one kernel launch is one operation of its stream; when it runs, its
// blocks run on the device's workers with the thread-local BlockContext set for each block.
// The kernel runtime's interface to the C API (api/src/kernel.cpp), which resolves the stream
// handle and reports the errors; the functions declared here are not exported from libascendcl
// (hidden), unlike the rest of canopy::kernel.
#include <cstdint>
#include <optional>
#include <string>

#include "canopy/engine/stream.h"
#include "canopy/kernel/launch.h"

namespace canopy::kernel {

// A cooperative launch runs one thread per block so that SyncAll can hold every block; on the NPU
// SyncAll needs all blocks resident at once, i.e. at most one block per core (24 cube, 48 vector
// cores on Atlas A2), so real kernels stay far below this bound.
inline constexpr std::uint32_t max_cooperative_blocks = 512;

struct LaunchPlan {
    const char* kernel;             // name; must outlive the operation
    std::uint32_t num_blocks;
    std::uint32_t dyn_ubuf_bytes;
    bool cooperative;               // all blocks at once, one thread each (SyncAll)
    KernelCores cores;              // the cores of each block
    const void* symbol = nullptr;   // the kernel's address, for the exception callbacks
    std::uint32_t npu_arch = 0;     // the part the kernel is built for (0: not known)
};

// Enqueues the launch as one operation of `stream`; throws OperationError(ACL_ERROR_RT_SOC_VERSION)
// naming both parts when the kernel is built for another part than the modelled SoC's. A block that raises a KernelFault (or leaves a
// deferred fault, or throws) stops the launch and fails the operation with
// OperationError(code, "kernel <name> block <i>/<n>: <message>"). At most the device's vector-core
// limit (aclrtSetDeviceResLimit) of blocks run at once; aclrtStreamStop / Abort stop the launch
// between blocks; with the stream's overflow detection on, a block that raises an IEEE overflow,
// invalid or divide-by-zero flag sets the device's overflow status.
void enqueue_launch(engine::Stream& stream, const LaunchPlan& plan, KernelCall&& call);

#define CANOPY_KERNEL_RUNTIME_INTERNAL __attribute__((visibility("hidden")))

// Throw OperationError(ACL_ERROR_RT_PARAM_INVALID, "kernel <name>: ...") when numBlocks is outside
// [1, max_blocks], or, for a cooperative kernel, above max_cooperative_blocks.
CANOPY_KERNEL_RUNTIME_INTERNAL void check_block_count(const std::string& kernel, std::uint32_t num_blocks);
CANOPY_KERNEL_RUNTIME_INTERNAL void check_cooperative_block_count(const std::string& kernel, std::uint32_t num_blocks);

// Enqueues a launch of the templated forms (launch.h) on `stream`, its block count checked: the
// kernel's traits come from its compiled launch site, else the registry; a kernel compiled per
// core type has its cores and cooperation inferred (canopy-core-link) unless it declares them.
CANOPY_KERNEL_RUNTIME_INTERNAL void enqueue_request(engine::Stream& stream, const LaunchRequest& request,
                                                    KernelCall&& call);

// The first fault the running block raised (block.cpp's raise): thrown again by any fault raised
// while the block unwinds from it. The launcher clears it as each block starts, and keeps an
// outer block's across a block it runs while that one waits.
CANOPY_KERNEL_RUNTIME_INTERNAL std::optional<KernelFault>& unwinding_fault();

}  // namespace canopy::kernel
