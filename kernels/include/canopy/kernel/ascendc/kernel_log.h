#pragma once
// ASCENDC_ASSERT(cond, behavior) and ASCENDC_ASSERT_WARNING, as CANN's kernel_log.h defines them for
// its CPU debug mode: when cond is false, behavior runs (normally a KERNEL_LOG) and the kernel
// stops; here the launch fails with ACL_ERROR_RT_AICORE_EXCEPTION naming the condition, as the
// kernel API's own checks fail it (outside a kernel the process aborts, as CANN's does).
#include <cstdlib>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/debug.h"

namespace canopy::kernel::ascendc {
[[noreturn, gnu::cold, gnu::noinline]] inline void ascendc_assert_failed(const char* condition, const char* file,
                                                                          int line) {
    if (!in_kernel()) std::abort();
    fail_misuse("ASCENDC_ASSERT", condition, " is false (", file, ":", line, ")");
}
}  // namespace canopy::kernel::ascendc

#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                              \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            behavior;                                                                               \
            ::canopy::kernel::ascendc::ascendc_assert_failed(#cond, __FILE__, __LINE__);            \
        }                                                                                           \
    } while (0)
#endif

#ifndef ASCENDC_ASSERT_WARNING
#define ASCENDC_ASSERT_WARNING(cond, behavior) \
    do {                                       \
        if (!(cond)) {                         \
            behavior;                          \
        }                                      \
    } while (0)
#endif

// ASSERT(x) (CANN's kernel_macros.h): the kernel's assert.
#ifndef ASSERT
#define ASSERT(x) assert(x)
#endif
