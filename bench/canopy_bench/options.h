#pragma once
// canopy-bench's command line: parsed and checked here without touching the runtime, so that every
// error is found before any resource exists (and can be unit-tested: test/canopy_bench_options_test.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace canopy_bench {

// The operators of kernels/ops a chunk can go through, in the order given to --kernel.
enum class Kernel { add, softmax, layernorm, matmul };

const char* kernel_name(Kernel kernel);

// Exit codes of the program.
inline constexpr int exit_ok = 0;
inline constexpr int exit_wrong_result = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_runtime_error = 3;

// CANN's stream priorities: 0 is the greatest, 7 the least (aclrtDeviceGetStreamPriorityRange).
inline constexpr std::uint32_t least_priority = 7;

struct Options {
    std::uint32_t streams = 4;
    std::uint64_t chunk_bytes = std::uint64_t{1} << 20;
    std::uint32_t chunks = 48;  // per stream
    std::vector<Kernel> kernels{Kernel::add, Kernel::softmax};
    std::uint32_t blocks = 8;
    // One priority per stream, or one for all; empty means the default priority.
    std::vector<std::uint32_t> priorities;
    std::uint32_t devices = 1;
    std::uint32_t repetitions = 3;
    std::string json_path;  // "-": standard output
    std::string trace_path;  // the runtime's timeline (CANOPY_TRACE); empty: a temporary one for the profile
    std::string svg_path;
    // Hidden, for the tests: flips a byte of this output chunk (stream * chunks + chunk) of the first
    // measured pipelined run before it is verified.
    std::optional<std::uint64_t> corrupt_chunk;
    bool help = false;
    bool version = false;

    bool json_to_stdout() const { return json_path == "-"; }

    std::uint64_t total_chunks() const { return std::uint64_t{streams} * chunks; }
    std::uint32_t priority_of(std::uint32_t stream) const {
        return priorities.empty() ? 0 : priorities[stream % priorities.size()];
    }
};

struct ParseResult {
    Options options;
    std::string error;  // empty when the command line is valid
    bool ok() const { return error.empty(); }
};

// Parses argv[1..]; "--name value" and "--name=value" are both accepted. Checks ranges and the
// consistency of the options with the chunk layout the kernels need (layout.h).
ParseResult parse_options(const std::vector<std::string>& arguments);
ParseResult parse_options(int argc, const char* const* argv);

std::string usage(const std::string& program);

}  // namespace canopy_bench
