#include "canopy/kernel/block.h"

CANOPY_KERNEL_API thread_local std::int64_t block_idx = 0;
CANOPY_KERNEL_API thread_local std::int64_t block_num = 0;

namespace canopy::kernel {

namespace {
thread_local BlockContext running;
}

BlockContext& current_block() { return running; }

void raise(int code, const char* api, const std::string& detail) {
    throw KernelFault{code, std::string(api) + ": " + detail};
}

void defer_fault(int code, const char* api, const std::string& detail) {
    BlockContext& block = current_block();
    if (block.deferred_code != 0) return;
    block.deferred_code = code;
    block.deferred_message = std::string(api) + ": " + detail;
}

}  // namespace canopy::kernel
