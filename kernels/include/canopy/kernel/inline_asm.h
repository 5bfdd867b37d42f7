#pragma once
// Inline assembly in kernel sources. A kernel's asm statements are AI Core instructions, which a
// CPU cannot execute; the one the official samples use is `asm("trap")`, a kernel raising a fault
// on purpose. Kernel sources (which include kernel_operator.h) see `asm(...)` as a call that raises
// the fault the AI Core would: a trap fails the launch with ACL_ERROR_RT_AICORE_TRAP_EXCEPTION
// (507016) and any other instruction with ACL_ERROR_RT_AICORE_EXCEPTION naming it, so the build
// succeeds and the failure arrives on the stream, as on the device. Only the function-like form
// `asm(` is replaced: `asm volatile (...)` and `__asm__` keep their meaning.
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel {

[[noreturn]] inline void inline_assembly(const char* text) {
    std::string instruction = text;
    while (!instruction.empty() && (instruction.back() == ';' || instruction.back() == ' ' || instruction.back() == '\n'))
        instruction.pop_back();
    if (instruction == "trap") raise(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, "asm", "trap");
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, "asm",
          "\"" + instruction + "\" is an AI Core instruction, which Canopy cannot execute on a CPU");
}

}  // namespace canopy::kernel

#define asm(...) ::canopy::kernel::inline_assembly(__VA_ARGS__)
