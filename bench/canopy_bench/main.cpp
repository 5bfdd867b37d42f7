// canopy-bench: a multi-stream pipeline workload on Canopy's AscendCL runtime (see --help).
// Only the public C API is used (acl/acl.h and the kernels' ACLRT_LAUNCH_KERNEL), as a CANN
// application would.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <oneapi/tbb/parallel_for.h>

#include "acl/acl.h"
#include "layout.h"
#include "options.h"
#include "pipeline.h"
#include "progress.h"
#include "report.h"
#include "timeline.h"
#include "workload.h"

using namespace canopy_bench;

namespace {

// aclInit with the device count asked for (Canopy's "canopy" section of the aclInit JSON).
void init_runtime(const Options& options) {
    if (options.devices == 1) {
        if (aclInit(nullptr) != ACL_SUCCESS) throw RuntimeError(std::string("aclInit failed: ") + aclGetRecentErrMsg());
        return;
    }
    char path[] = "/tmp/canopy-bench-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw RuntimeError("cannot create the aclInit configuration file in /tmp");
    const std::string config = "{\"canopy\": {\"device_count\": " + std::to_string(options.devices) + "}}\n";
    const bool written = write(fd, config.data(), config.size()) == static_cast<ssize_t>(config.size());
    close(fd);
    const aclError error = written ? aclInit(path) : ACL_ERROR_INVALID_FILE;
    unlink(path);
    if (error != ACL_SUCCESS) throw RuntimeError(std::string("aclInit failed: ") + aclGetRecentErrMsg());
}

// The runtime's timeline of the whole run: --trace's file, or a temporary one that only feeds the
// profile table and --svg. Set through CANOPY_TRACE, which the runtime reads when it starts.
struct TraceFiles {
    explicit TraceFiles(const Options& options) : path(options.trace_path) {
        if (path.empty()) {
            char name[] = "/tmp/canopy-bench-trace-XXXXXX";
            if (!mkdtemp(name)) throw RuntimeError("cannot create a temporary directory for the trace in /tmp");
            directory = name;
            path = directory + "/run.json";
        }
        setenv("CANOPY_TRACE", path.c_str(), 1);
    }
    ~TraceFiles() {
        if (directory.empty()) return;
        for (const char* name : {"/run.json", "/op_summary_run.csv", "/op_statistic_run.csv"})
            std::remove((directory + name).c_str());
        rmdir(directory.c_str());
    }
    std::string path;
    std::string directory;  // set when temporary
};

int run(const Options& options, const Layout& layout) {
    const TraceFiles trace(options);
    init_runtime(options);
    const Resident resident = make_resident(layout);
    const std::uint32_t warmup_chunks = std::min<std::uint32_t>(2, options.chunks);
    Progress progress((std::uint64_t(warmup_chunks) + std::uint64_t(options.repetitions) * options.chunks) * 2 *
                      options.streams);
    Results results;
    {
        Pipeline pipeline(options, layout, resident, progress);

        // Inputs and their references, computed on the host before anything is timed.
        const std::uint64_t total = options.total_chunks();
        std::vector<float> expected(total * layout.elements);
        oneapi::tbb::parallel_for(std::uint64_t{0}, total, [&](std::uint64_t index) {
            const auto stream = static_cast<std::uint32_t>(index / options.chunks);
            const auto chunk = static_cast<std::uint32_t>(index % options.chunks);
            fill_input(layout, index, pipeline.input(stream, chunk));
            reference_output(options, layout, resident, pipeline.input(stream, chunk),
                             expected.data() + index * layout.elements);
        });
        const double tol = tolerance(options, layout);

        auto verify = [&](const std::string& run, std::uint32_t chunks) {
            std::vector<ChunkCheck> checks(std::size_t(chunks) * options.streams);
            oneapi::tbb::parallel_for(std::size_t{0}, checks.size(), [&](std::size_t i) {
                const auto stream = static_cast<std::uint32_t>(i / chunks);
                const auto chunk = static_cast<std::uint32_t>(i % chunks);
                checks[i] = check_chunk(layout, pipeline.output(stream, chunk),
                                        expected.data() + (std::uint64_t(stream) * options.chunks + chunk) * layout.elements,
                                        tol);
            });
            for (std::size_t i = 0; i < checks.size(); ++i) {
                if (checks[i].wrong != 0) {
                    results.wrong.push_back({run, static_cast<std::uint32_t>(i / chunks),
                                             static_cast<std::uint32_t>(i % chunks), checks[i]});
                }
            }
            results.verified_chunks += checks.size();
            ++results.verified_runs;
        };

        // A short warm-up of both modes (first touch of the buffers, the kernels' first launches).
        pipeline.run(Mode::pipelined, warmup_chunks, "warm-up");
        verify("warm-up pipelined", warmup_chunks);
        pipeline.run(Mode::one_stream, warmup_chunks, "warm-up");
        verify("warm-up one-stream", warmup_chunks);

        // Alternating, so that a drift of the machine's load affects both modes alike.
        const MachineLoad load;
        for (std::uint32_t r = 0; r < options.repetitions; ++r) {
            const std::string number = std::to_string(r + 1) + "/" + std::to_string(options.repetitions);
            results.pipelined.push_back(pipeline.run(Mode::pipelined, options.chunks, "pipelined " + number));
            if (r == 0 && options.corrupt_chunk) {
                const auto stream = static_cast<std::uint32_t>(*options.corrupt_chunk / options.chunks);
                const auto chunk = static_cast<std::uint32_t>(*options.corrupt_chunk % options.chunks);
                // The most significant byte of the first element: its sign and exponent.
                pipeline.output(stream, chunk)[layout.element_bytes - 1] ^= 0x40;
            }
            verify("pipelined " + number, options.chunks);
            results.one_stream.push_back(pipeline.run(Mode::one_stream, options.chunks, "one stream " + number));
            verify("one-stream " + number, options.chunks);
        }
        results.foreign_load = load.foreign_share();
        progress.clear();
    }
    aclFinalize();  // writes the trace

    try {
        const Timeline timeline = read_timeline(trace.path);
        results.profile = profile(timeline);
        if (!options.svg_path.empty() && !write_svg(timeline, options.svg_path)) {
            std::fprintf(stderr, "canopy-bench: cannot write %s\n", options.svg_path.c_str());
            return exit_runtime_error;
        }
    } catch (const std::exception& error) {
        throw RuntimeError(std::string("the timeline: ") + error.what());
    }

    if (!report(options, layout, results)) {
        std::fprintf(stderr, "canopy-bench: cannot write %s\n", options.json_path.c_str());
        return exit_runtime_error;
    }
    return results.wrong.empty() ? exit_ok : exit_wrong_result;
}

}  // namespace

int main(int argc, char** argv) {
    const ParseResult parsed = parse_options(argc, argv);
    if (!parsed.ok()) {
        std::fprintf(stderr, "canopy-bench: %s\n(canopy-bench --help lists the options)\n", parsed.error.c_str());
        return exit_usage;
    }
    if (parsed.options.help) {
        std::fputs(usage("canopy-bench").c_str(), stdout);
        return exit_ok;
    }
    if (parsed.options.version) {
        std::printf("canopy-bench (Canopy %s)\n", CANOPY_VERSION);
        return exit_ok;
    }
    Layout layout;
    plan_layout(parsed.options, layout);  // checked by parse_options
    // Found unwritable now rather than after the whole run.
    for (const auto& [option, path] : {std::pair<const char*, std::string>{"--json", parsed.options.json_path},
                                       {"--trace", parsed.options.trace_path},
                                       {"--svg", parsed.options.svg_path}}) {
        if (!path.empty() && !(option == std::string("--json") && parsed.options.json_to_stdout()) &&
            !std::ofstream(path)) {
            std::fprintf(stderr, "canopy-bench: %s %s: cannot open the file for writing\n", option, path.c_str());
            return exit_usage;
        }
    }
    try {
        return run(parsed.options, layout);
    } catch (const RuntimeError& error) {
        std::fprintf(stderr, "\ncanopy-bench: %s\n", error.what());
        return exit_runtime_error;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "\ncanopy-bench: out of host memory for %llu chunks of %llu bytes\n",
                     (unsigned long long)parsed.options.total_chunks(), (unsigned long long)parsed.options.chunk_bytes);
        return exit_runtime_error;
    }
}
