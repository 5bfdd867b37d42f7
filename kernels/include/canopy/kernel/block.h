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

struct BlockContext {
    std::int64_t index = 0;
    std::int64_t count = 0;
    std::byte* ub = nullptr;        // this block's Unified Buffer: 32-byte aligned, reused across blocks
    std::size_t ub_bytes = 0;       // configured UB size plus the launch's dynUBufSize
    const char* kernel = nullptr;   // kernel name, for error messages
    // A misuse found where throwing is not possible (a destructor, such as TPipe's finding buffers
    // still held at kernel end). The launcher checks it when the block returns.
    int deferred_code = 0;
    std::string deferred_message;
};

// The running block; only valid inside a kernel launched by the launcher.
CANOPY_KERNEL_API BlockContext& current_block();

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

}  // namespace canopy::kernel

// Ascend C's block globals: thread-local here, since blocks run concurrently on worker threads.
extern CANOPY_KERNEL_API thread_local std::int64_t block_idx;
extern CANOPY_KERNEL_API thread_local std::int64_t block_num;
