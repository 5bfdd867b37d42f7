#pragma once
// ASCENDC_ASSERT(cond, behavior) of CANN's kernel_log.h: when cond is false, runs behavior (a
// KERNEL_LOG, typically) and stops the kernel. CANN's CPU debug mode raises SIGABRT; here the
// launch fails with 507015 naming the assertion, like the other kernel checks.
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/debug.h"

#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                         \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            behavior;                                                                          \
            ::canopy::kernel::ascendc::fail_misuse("ASCENDC_ASSERT", "assertion failed: " #cond); \
        }                                                                                      \
    } while (0)
#endif
