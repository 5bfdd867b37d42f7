#pragma once
// Runtime options. CANN programs pass a JSON file to aclInit; Canopy reads its own options from the
// "canopy" object of that file and ignores the keys CANN itself uses (dump, profiler, ...).
#include <cstddef>
#include <string>

namespace canopy::engine {

struct RuntimeConfig {
    int device_count = 1;
    int workers_per_device = 0;                    // 0: one per hardware thread
    std::size_t ub_bytes = 192 * 1024;             // Atlas A2 Unified Buffer per core
    std::size_t device_memory_bytes = std::size_t{16} << 30;

    int effective_workers() const;
};

// Parses the aclInit file. Throws ConfigError naming the file and the offending key.
RuntimeConfig load_config(const std::string& path);

struct ConfigError {
    int code;
    std::string message;
};

}  // namespace canopy::engine
