#include "options.h"

#include <cctype>
#include <limits>

#include "layout.h"

namespace canopy_bench {

const char* kernel_name(Kernel kernel) {
    switch (kernel) {
        case Kernel::add: return "add";
        case Kernel::softmax: return "softmax";
        case Kernel::layernorm: return "layernorm";
        case Kernel::matmul: return "matmul";
    }
    return "?";
}

namespace {

// Upper bounds: the runtime has at most 64 devices (aclInit's device_count), a launch 65535 blocks.
constexpr std::uint64_t max_streams = 256;
constexpr std::uint64_t max_chunks = 1'000'000;
constexpr std::uint64_t min_chunk_bytes = 64;
constexpr std::uint64_t max_chunk_bytes = std::uint64_t{1} << 30;
static_assert(max_chunk_bytes / 2 <= std::numeric_limits<std::uint32_t>::max(),
              "a chunk's element count is a kernel's uint32 length");
constexpr std::uint64_t max_blocks = 65535;
constexpr std::uint64_t max_devices = 64;
constexpr std::uint64_t max_repetitions = 1000;

// A decimal integer, optionally with a binary suffix (K, M, G, with or without "iB") when
// `suffixes` is set. Returns an error message or "".
std::string parse_integer(const std::string& option, const std::string& text, bool suffixes, std::uint64_t low,
                          std::uint64_t high, std::uint64_t& out) {
    const std::string what = option + " " + (text.empty() ? "''" : text);
    std::size_t at = 0;
    std::uint64_t value = 0;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
        const std::uint64_t digit = static_cast<std::uint64_t>(text[at] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return what + ": the number is too large";
        value = value * 10 + digit;
        ++at;
    }
    if (at == 0) return what + ": expected a non-negative integer" + (suffixes ? " (with K, M or G for KiB, MiB, GiB)" : "");
    std::string suffix = text.substr(at);
    if (!suffix.empty()) {
        std::uint64_t scale = 0;
        if (suffixes) {
            for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (suffix == "K" || suffix == "KIB") scale = std::uint64_t{1} << 10;
            if (suffix == "M" || suffix == "MIB") scale = std::uint64_t{1} << 20;
            if (suffix == "G" || suffix == "GIB") scale = std::uint64_t{1} << 30;
        }
        if (scale == 0) {
            return what + ": unexpected '" + text.substr(at) + "' after the number" +
                   (suffixes ? " (the suffixes are K, M and G)" : "");
        }
        if (value > std::numeric_limits<std::uint64_t>::max() / scale) return what + ": the number is too large";
        value *= scale;
    }
    if (value < low || value > high) {
        return what + ": must be in [" + std::to_string(low) + ", " + std::to_string(high) + "]";
    }
    out = value;
    return {};
}

template <class T>
std::string parse_into(const std::string& option, const std::string& text, bool suffixes, std::uint64_t low,
                       std::uint64_t high, T& out) {
    std::uint64_t value = 0;
    std::string error = parse_integer(option, text, suffixes, low, high, value);
    if (error.empty()) out = static_cast<T>(value);
    return error;
}

// Comma-separated items, none empty.
std::string split_list(const std::string& option, const std::string& text, std::vector<std::string>& items) {
    items.clear();
    std::size_t begin = 0;
    while (true) {
        const std::size_t comma = text.find(',', begin);
        const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
        if (item.empty()) return option + " '" + text + "': an empty item in the comma-separated list";
        items.push_back(item);
        if (comma == std::string::npos) return {};
        begin = comma + 1;
    }
}

std::string parse_kernels(const std::string& text, std::vector<Kernel>& kernels) {
    std::vector<std::string> names;
    if (std::string error = split_list("--kernel", text, names); !error.empty()) return error;
    std::vector<Kernel> parsed;
    for (const std::string& name : names) {
        bool found = false;
        for (Kernel kernel : {Kernel::add, Kernel::softmax, Kernel::layernorm, Kernel::matmul}) {
            if (name == kernel_name(kernel)) {
                parsed.push_back(kernel);
                found = true;
            }
        }
        if (!found) return "--kernel: unknown kernel '" + name + "' (the kernels are add, softmax, layernorm, matmul)";
    }
    kernels = parsed;
    return {};
}

std::string parse_priorities(const std::string& text, std::vector<std::uint32_t>& priorities) {
    std::vector<std::string> items;
    if (std::string error = split_list("--priorities", text, items); !error.empty()) return error;
    std::vector<std::uint32_t> parsed;
    for (const std::string& item : items) {
        std::uint32_t priority = 0;
        if (std::string error = parse_into("--priorities", item, false, 0, least_priority, priority); !error.empty())
            return error;
        parsed.push_back(priority);
    }
    priorities = parsed;
    return {};
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& arguments) {
    ParseResult result;
    Options& o = result.options;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        std::string name = arguments[i];
        std::string value;
        bool has_value = false;
        if (name == "-h") name = "--help";  // the one short option: what a lost user types first
        if (name.rfind("--", 0) != 0 || name.size() == 2) {
            result.error = "unexpected argument '" + name + "' (options start with --; see --help)";
            return result;
        }
        if (const std::size_t equals = name.find('='); equals != std::string::npos) {
            value = name.substr(equals + 1);
            name = name.substr(0, equals);
            has_value = true;
        }
        if (name == "--help" || name == "--version") {
            if (has_value) {
                result.error = name + " takes no value";
                return result;
            }
            (name == "--help" ? o.help : o.version) = true;
            continue;
        }
        const bool known = name == "--streams" || name == "--chunk-bytes" || name == "--chunks" ||
                           name == "--kernel" || name == "--blocks" || name == "--priorities" ||
                           name == "--devices" || name == "--repetitions" || name == "--json" ||
                           name == "--trace" || name == "--svg" || name == "--corrupt-chunk";
        if (!known) {
            result.error = "unknown option '" + name + "' (see --help)";
            return result;
        }
        if (!has_value) {
            if (i + 1 == arguments.size()) {
                result.error = name + " needs a value";
                return result;
            }
            value = arguments[++i];
        }
        std::string& error = result.error;
        if (name == "--streams") error = parse_into(name, value, false, 1, max_streams, o.streams);
        else if (name == "--chunk-bytes") error = parse_into(name, value, true, min_chunk_bytes, max_chunk_bytes, o.chunk_bytes);
        else if (name == "--chunks") error = parse_into(name, value, false, 1, max_chunks, o.chunks);
        else if (name == "--kernel") error = parse_kernels(value, o.kernels);
        else if (name == "--blocks") error = parse_into(name, value, false, 1, max_blocks, o.blocks);
        else if (name == "--priorities") error = parse_priorities(value, o.priorities);
        else if (name == "--devices") error = parse_into(name, value, false, 1, max_devices, o.devices);
        else if (name == "--repetitions") error = parse_into(name, value, false, 1, max_repetitions, o.repetitions);
        else if (name == "--json") {
            if (value.empty()) error = "--json needs a file name";
            o.json_path = value;
        } else if (name == "--trace") {
            if (value.empty()) error = "--trace needs a file name";
            o.trace_path = value;
        } else if (name == "--svg") {
            if (value.empty()) error = "--svg needs a file name";
            o.svg_path = value;
        } else if (name == "--corrupt-chunk") {
            std::uint64_t chunk = 0;
            error = parse_integer(name, value, false, 0, std::numeric_limits<std::uint64_t>::max(), chunk);
            o.corrupt_chunk = chunk;
        }
        if (!error.empty()) return result;
    }
    if (o.help || o.version) return result;

    // Consistency between options.
    if (o.priorities.size() > 1 && o.priorities.size() != o.streams) {
        result.error = "--priorities gives " + std::to_string(o.priorities.size()) +
                       " values for --streams " + std::to_string(o.streams) + ": give one for all or one per stream";
        return result;
    }
    if (o.devices > o.streams) {
        result.error = "--devices " + std::to_string(o.devices) + " exceeds --streams " + std::to_string(o.streams) +
                       ": the streams are spread over the devices, each needs at least one";
        return result;
    }
    if (o.corrupt_chunk && *o.corrupt_chunk >= o.total_chunks()) {
        result.error = "--corrupt-chunk " + std::to_string(*o.corrupt_chunk) + " is not below the " +
                       std::to_string(o.total_chunks()) + " chunks of the run";
        return result;
    }
    Layout layout;
    result.error = plan_layout(o, layout);
    return result;
}

ParseResult parse_options(int argc, const char* const* argv) {
    std::vector<std::string> arguments;
    for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i]);
    return parse_options(arguments);
}

std::string usage(const std::string& program) {
    const Options d;
    std::string kernels;
    for (Kernel kernel : d.kernels) {
        if (!kernels.empty()) kernels += ',';
        kernels += kernel_name(kernel);
    }
    return "usage: " + program + " [options]\n"
           "\n"
           "A multi-stream pipeline on Canopy's AscendCL runtime: each stream takes its chunks through a\n"
           "host-to-device copy, the kernels and a device-to-host copy, two chunks in flight per stream\n"
           "(copy-in, compute and copy-out run on their own streams, ordered by events). The same work is\n"
           "then run on one stream for the overlap efficiency, and every output chunk is verified.\n"
           "\n"
           "options (defaults in brackets):\n"
           "  --streams N        pipeline streams [" + std::to_string(d.streams) + "]\n"
           "  --chunk-bytes N    bytes per chunk, K/M/G suffixes for KiB/MiB/GiB [" +
           (d.chunk_bytes % (1u << 20) == 0 ? std::to_string(d.chunk_bytes >> 20) + "M"
                                            : std::to_string(d.chunk_bytes >> 10) + "K") + "]\n"
           "  --chunks N         chunks per stream [" + std::to_string(d.chunks) + "]\n"
           "  --kernel LIST      kernels each chunk goes through, in order: add, softmax, layernorm,\n"
           "                     matmul (matmul on half, chainable with add only) [" + kernels + "]\n"
           "  --blocks N         blocks of the add and matmul launches; softmax and layernorm run\n"
           "                     one-block launches of " + std::to_string(rows_per_launch) + " rows [" +
           std::to_string(d.blocks) + "]\n"
           "  --priorities LIST  stream priorities 0 (greatest) to 7, one for all or one per stream [0]\n"
           "  --devices N        devices the streams are spread over [" + std::to_string(d.devices) + "]\n"
           "  --repetitions N    measured runs of each mode; the medians are reported [" +
           std::to_string(d.repetitions) + "]\n"
           "  --json FILE        also write the results as JSON to FILE; '-' writes the JSON to standard\n"
           "                     output and the table to standard error\n"
           "  --trace FILE       write the timeline of every operation to FILE (Chrome trace JSON,\n"
           "                     for Perfetto or chrome://tracing), with op_summary / op_statistic CSVs\n"
           "  --svg FILE         draw the streams over time as an SVG Gantt chart\n"
           "  -h, --help         this text\n"
           "  --version          Canopy's version\n"
           "\n"
           "\n"
           "The overlap depends on idle hardware threads: when other processes kept the machine busy during\n"
           "the run, the table says so and the JSON gives their share (machine.foreign_load).\n"
           "\n"
           "exit status: 0 all output verified, 1 a wrong output chunk, 2 bad options, 3 runtime error\n";
}

}  // namespace canopy_bench
