#include "canopy/kernel/block.h"

#include <exception>
#include <optional>

#include "canopy/kernel_runtime/launcher.h"

CANOPY_KERNEL_API thread_local std::int64_t block_idx = 0;
CANOPY_KERNEL_API thread_local std::int64_t block_num = 0;

namespace canopy::kernel {

namespace {
// Initial-exec: libascendcl is loaded with the program (it is a link dependency, not dlopen'ed),
// so its TLS is in the static block and needs no __tls_get_addr call.
__attribute__((tls_model("initial-exec"))) thread_local BlockContext running;
}  // namespace

// `running` is constructed (and its destructor registered) on a thread's first use, which costs a
// guarded call on every access; this trivial pointer is a plain load once it is set.
CANOPY_KERNEL_API __attribute__((tls_model("initial-exec"))) __thread BlockContext* detail::running_block = nullptr;

BlockContext& detail::first_use_of_running_block() {
    running_block = &running;
    return running;
}

std::optional<KernelFault>& unwinding_fault() {
    thread_local std::optional<KernelFault> fault;
    return fault;
}

// A fault raised while the block is already unwinding from one it raised (a destructor on the way
// out, such as catlass's BlockMmad waiting for the flags its constructor set, which the fault kept
// from being consumed) only follows from the first: the first is thrown again, so that the launch
// reports what went wrong rather than its aftermath.
void raise(int code, const char* api, const std::string& detail) {
    std::optional<KernelFault>& first = unwinding_fault();
    if (first && std::uncaught_exceptions() > 0) throw KernelFault(*first);
    first = KernelFault{code, std::string(api) + ": " + detail};
    throw KernelFault(*first);
}

void defer_fault(int code, const char* api, const std::string& detail) {
    BlockContext& block = current_block();
    if (block.deferred_code != 0) return;
    block.deferred_code = code;
    block.deferred_message = std::string(api) + ": " + detail;
}

}  // namespace canopy::kernel
