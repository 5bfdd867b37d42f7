// The launch of the templated forms (ACLRT_LAUNCH_KERNEL, <<<>>>; canopy/kernel/launch.h) once its
// stream is known: the kernel's traits from its compiled launch site or the registry, the block
// count checks, and the enqueue on the launcher (launcher.h).
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/failure.h"
#include "canopy/kernel_runtime/launcher.h"
#include "canopy/kernel_runtime/registry.h"

namespace canopy::kernel {

void check_block_count(const std::string& kernel, std::uint32_t num_blocks) {
    if (num_blocks == 0 || num_blocks > max_blocks) {
        throw engine::OperationError(ACL_ERROR_RT_PARAM_INVALID, "kernel " + kernel + ": numBlocks " +
                                                                     std::to_string(num_blocks) + " is outside [1, " +
                                                                     std::to_string(max_blocks) + "]");
    }
}

void check_cooperative_block_count(const std::string& kernel, std::uint32_t num_blocks) {
    if (num_blocks > max_cooperative_blocks) {
        throw engine::OperationError(
            ACL_ERROR_RT_PARAM_INVALID,
            "kernel " + kernel + " is cooperative (SyncAll), so all its blocks run at once, one thread each; numBlocks " +
                std::to_string(num_blocks) + " exceeds " + std::to_string(max_cooperative_blocks) +
                " (on the NPU SyncAll needs at most one block per AI core)");
    }
}

void enqueue_request(engine::Stream& stream, const LaunchRequest& request, KernelCall&& call) {
    const KernelRegistry& registry = KernelRegistry::instance();
    bool cooperative = request.site ? request.site->cooperative : registry.cooperative(request.symbol);
    KernelCores cores = request.site ? request.site->cores : registry.cores(request.symbol);
    if (request.core_split) {
        // Inferred from the kernel's code, unless the kernel declares its cores.
        const SplitTraits split = registry.split_traits(request.core_split);
        if (!request.site->cores_declared) cores = split.cores;
        cooperative = cooperative || split.cooperative;
    }
    if (cooperative) check_cooperative_block_count(request.kernel, request.num_blocks);
    // A launch site knows the part its source is built for; a launch by symbol asks the registry.
    const std::uint32_t npu_arch = request.site ? request.site->npu_arch : registry.foreign_arch(request.symbol);
    enqueue_launch(stream,
                   LaunchPlan{request.kernel, request.num_blocks, request.dyn_ubuf_bytes, cooperative, cores,
                              request.symbol, npu_arch},
                   std::move(call));
}

}  // namespace canopy::kernel
