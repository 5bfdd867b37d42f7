#pragma once
// Runtime options. CANN programs pass a JSON file to aclInit; Canopy reads its own options from the
// "canopy" object of that file and ignores the keys CANN itself uses (dump, profiler, ...).
#include <cstddef>
#include <string>

#include "canopy/soc.h"

namespace canopy::engine {

struct RuntimeConfig {
    int device_count = 1;
    int workers_per_device = 0;                    // 0: one per hardware thread
    // The Unified Buffer of each block: the modelled part's (192 KiB on the A2, 248 KiB on the 950).
    std::size_t ub_bytes = soc::modelled_part().ub_bytes;
    std::size_t device_memory_bytes = std::size_t{16} << 30;
    // Synchronous copies and memsets first wait for the work queued on the device's streams
    // (Device::wait_queued_work). Off by default: CANN documents that aclrtMemcpy, aclrtMemcpy2d
    // and aclrtMemset copy at once, without any implicit device or stream synchronization, and
    // its runtime hands them straight to the driver. On for programs that rely on a launched
    // kernel having finished before a synchronous copy reads its output, which on the NPU is a
    // race the kernel usually wins.
    bool sync_copies_wait = false;
    // How many operations a stream holds queued (enqueued and not finished) before an enqueue
    // waits for room, as the NPU's per-stream task queue does; checked every
    // Stream::room_check_interval operations, so a submitting thread may run that many past it.
    std::size_t queue_depth = std::size_t{1} << 16;
    // An enqueue onto a full stream fails at once with ACL_ERROR_RT_STREAM_TASK_FULL instead of
    // waiting for room.
    bool queue_full_fails = false;
    // A timeline of every operation (Chrome trace event format) written to this file at aclFinalize,
    // with msprof-style op_summary / op_statistic CSVs beside it (api/src/trace.h). Empty: the
    // CANOPY_TRACE environment variable decides; neither: no tracing.
    std::string trace;

    int effective_workers() const;
};

// Parses the aclInit file. Throws ConfigError naming the file and the offending key.
RuntimeConfig load_config(const std::string& path);

struct ConfigError {
    int code;
    std::string message;
};

}  // namespace canopy::engine
