#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <thread>

#include <nlohmann/json.hpp>

namespace canopy_bench {

double percentile(std::vector<double> samples, double p) {
    if (samples.empty()) return 0;
    std::sort(samples.begin(), samples.end());
    const std::size_t rank = static_cast<std::size_t>(std::ceil(p * double(samples.size())));
    return samples[std::min(samples.size() - 1, rank == 0 ? 0 : rank - 1)];
}

namespace {

double mean(const std::vector<double>& samples) {
    return samples.empty() ? 0 : std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
}

std::vector<double> spans(const std::vector<RunTimes>& runs) {
    std::vector<double> result;
    for (const RunTimes& run : runs) result.push_back(run.span_ms);
    return result;
}

// All runs' samples of one stage.
std::vector<double> pooled(const std::vector<RunTimes>& runs, int stage, std::size_t kernel = 0) {
    std::vector<double> result;
    for (const RunTimes& run : runs) {
        const std::vector<double>& samples =
            stage == 0 ? run.h2d : stage == 1 ? run.kernels[kernel] : stage == 2 ? run.d2h : run.chunk;
        result.insert(result.end(), samples.begin(), samples.end());
    }
    return result;
}

std::string bytes_text(std::uint64_t bytes) {
    char text[32];
    if (bytes % (1u << 20) == 0) std::snprintf(text, sizeof text, "%llu MiB", (unsigned long long)(bytes >> 20));
    else if (bytes % (1u << 10) == 0) std::snprintf(text, sizeof text, "%llu KiB", (unsigned long long)(bytes >> 10));
    else std::snprintf(text, sizeof text, "%llu B", (unsigned long long)bytes);
    return text;
}

struct Stage {
    std::string name;
    std::vector<double> pipelined, one_stream;
};

// The best pipelined time this machine allows for the work measured on one stream, and why.
struct Ideal {
    double speedup = 1;
    double core_bound_ms = 0;    // the work in core-milliseconds over the hardware threads
    double stream_bound_ms = 0;  // a stream's chunks through its slowest stage
    unsigned threads = 1;
};

// Each operation, alone on one stream, keeps as many hardware threads busy as it has parallel
// pieces: a kernel its blocks, a copy one thread below 4 MiB (Canopy splits larger copies over the
// workers). Pipelining cannot do better than spreading that work over all threads, nor finish a
// stream sooner than its chunks through its slowest stage (copy-in, compute and copy-out of a
// stream overlap at best).
Ideal ideal_for(const Options& options, const Layout& layout, const std::vector<Stage>& stages, double one_stream_ms) {
    Ideal ideal;
    ideal.threads = std::max(1u, std::thread::hardware_concurrency());
    const double copy_threads = options.chunk_bytes >= (std::uint64_t{4} << 20) ? ideal.threads : 1;
    double work = 0, compute = 0;
    for (std::size_t i = 0; i < stages.size() - 1; ++i) {  // the last row is the end-to-end latency
        const double t = mean(stages[i].one_stream);
        if (i == 0 || i + 2 == stages.size()) {
            work += t * copy_threads;
        } else {
            work += t * std::min<double>(layout.blocks[i - 1], ideal.threads);
            compute += t;
        }
    }
    const double h2d = mean(stages.front().one_stream), d2h = mean(stages[stages.size() - 2].one_stream);
    ideal.core_bound_ms = work * double(options.total_chunks()) / ideal.threads;
    ideal.stream_bound_ms = double(options.chunks) * std::max({h2d, compute, d2h});
    const double best = std::max(ideal.core_bound_ms, ideal.stream_bound_ms);
    ideal.speedup = best > 0 ? std::max(1.0, one_stream_ms / best) : 1.0;
    return ideal;
}

double median(const std::vector<double>& samples) { return percentile(samples, 0.5); }

}  // namespace

bool report(const Options& options, const Layout& layout, const Results& results) {
    std::vector<Stage> stages;
    stages.push_back({"H2D copy", pooled(results.pipelined, 0), pooled(results.one_stream, 0)});
    for (std::size_t j = 0; j < options.kernels.size(); ++j) {
        std::string name = kernel_name(options.kernels[j]);
        name += " (" + std::to_string(layout.launches[j]) + (layout.launches[j] == 1 ? " launch x " : " launches x ") +
                std::to_string(layout.blocks[j]) + (layout.blocks[j] == 1 ? " block)" : " blocks)");
        stages.push_back({name, pooled(results.pipelined, 1, j), pooled(results.one_stream, 1, j)});
    }
    stages.push_back({"D2H copy", pooled(results.pipelined, 2), pooled(results.one_stream, 2)});
    stages.push_back({"chunk, end to end", pooled(results.pipelined, 3), pooled(results.one_stream, 3)});

    const double pipelined_ms = median(spans(results.pipelined));
    const double one_stream_ms = median(spans(results.one_stream));
    const double chunks = double(options.total_chunks());
    const double data = chunks * double(options.chunk_bytes);
    const double overlap = pipelined_ms > 0 ? one_stream_ms / pipelined_ms : 0;
    const Ideal ideal = ideal_for(options, layout, stages, one_stream_ms);
    const unsigned naive_ideal = std::min<unsigned>(options.streams, ideal.threads);
    // With the JSON on standard output, the table goes to standard error so that the output parses.
    std::FILE* const out = options.json_to_stdout() ? stderr : stdout;

    std::string chain;
    for (Kernel kernel : options.kernels) {
        if (!chain.empty()) chain += ',';
        chain += kernel_name(kernel);
    }
    std::fprintf(out, "canopy-bench: %u streams x %u chunks of %s (%s), kernels %s, %u device%s, %u repetition%s\n",
                options.streams, options.chunks, bytes_text(options.chunk_bytes).c_str(),
                layout.element == Element::f32 ? "float" : "half", chain.c_str(), options.devices,
                options.devices == 1 ? "" : "s", options.repetitions, options.repetitions == 1 ? "" : "s");
    if (!options.priorities.empty()) {
        std::fprintf(out, "stream priorities:");
        for (std::uint32_t s = 0; s < options.streams; ++s) std::fprintf(out, " %u", options.priority_of(s));
        std::fprintf(out, "\n");
    }
    std::fprintf(out, "\n%-30s %12s %12s %12s\n", "throughput (median run)", "GB/s", "chunks/s", "run ms");
    auto throughput = [&](const char* name, double ms) {
        std::fprintf(out, "%-30s %12.3f %12.1f %12.1f\n", name, ms > 0 ? data / (ms * 1e-3) / 1e9 : 0.0,
                    ms > 0 ? chunks / (ms * 1e-3) : 0.0, ms);
    };
    throughput("pipelined", pipelined_ms);
    throughput("one stream", one_stream_ms);
    std::fprintf(out, "(GB/s: chunk bytes in per second; each also crosses back D2H)\n");

    std::fprintf(out, "\n%-34s %10s %10s   %10s %10s\n", "latency per stage (ms)", "p50", "p99", "1-str p50", "1-str p99");
    for (const Stage& stage : stages) {
        std::fprintf(out, "%-34s %10.3f %10.3f   %10.3f %10.3f\n", stage.name.c_str(), percentile(stage.pipelined, 0.5),
                    percentile(stage.pipelined, 0.99), percentile(stage.one_stream, 0.5),
                    percentile(stage.one_stream, 0.99));
    }

    std::fprintf(out, "(from each stage's start event to its end event, so waiting for a free worker counts)\n");
    std::fprintf(out, "\noverlap efficiency %.2fx  (one stream %.1f ms / pipelined %.1f ms)\n", overlap, one_stream_ms,
                pipelined_ms);
    std::fprintf(out, "ideal on this machine %.2fx  (%u hardware threads: work bound %.1f ms, stream bound %.1f ms;\n"
                "                            min(streams, threads) would say %ux)\n",
                ideal.speedup, ideal.threads, ideal.core_bound_ms, ideal.stream_bound_ms, naive_ideal);
    std::fprintf(out, "share of the ideal    %.2f\n", ideal.speedup > 0 ? overlap / ideal.speedup : 0.0);
    if (results.foreign_load && *results.foreign_load > loaded_machine_share) {
        std::fprintf(out,
                     "WARNING: other processes kept %.0f%% of the %u hardware threads busy during the run: the\n"
                     "         overlap and its ideal are unreliable; run again on a quiet machine\n",
                     100.0 * *results.foreign_load, ideal.threads);
    }

    if (!results.profile.empty()) {
        double all = 0;
        for (const ProfileRow& row : results.profile) all += row.total_us;
        std::fprintf(out, "\n%-34s %8s %12s %10s %10s %10s %7s\n", "profile (all runs, from the timeline)", "count",
                    "total ms", "mean us", "min us", "max us", "share");
        for (const ProfileRow& row : results.profile) {
            std::fprintf(out, "%-34s %8llu %12.3f %10.2f %10.2f %10.2f %6.1f%%\n", row.type.c_str(),
                        (unsigned long long)row.count, row.total_us / 1000.0, row.mean_us(), row.min_us, row.max_us,
                        all > 0 ? 100.0 * row.total_us / all : 0.0);
        }
        std::fprintf(out, "(each operation from its start to its end on its stream; share of the kernels' and copies' time)\n");
    }

    if (results.wrong.empty()) {
        std::fprintf(out, "\nverified: all %llu output chunks of %u runs match the host reference\n",
                    (unsigned long long)results.verified_chunks, results.verified_runs);
    } else {
        std::fprintf(out, "\nFAILED: %zu of %llu output chunks are wrong\n", results.wrong.size(),
                    (unsigned long long)results.verified_chunks);
        std::size_t shown = 0;
        for (const WrongChunk& w : results.wrong) {
            if (++shown > 20) {
                std::fprintf(out, "  ... and %zu more\n", results.wrong.size() - 20);
                break;
            }
            std::fprintf(out, "  %s run: stream %u chunk %u (chunk index %llu): %llu of %llu elements wrong, first [%llu] = %g, "
                        "expected %g\n",
                        w.run.c_str(), w.stream, w.chunk, (unsigned long long)(std::uint64_t(w.stream) * options.chunks + w.chunk),
                        (unsigned long long)w.check.wrong, (unsigned long long)layout.elements,
                        (unsigned long long)w.check.first_wrong, double(w.check.got), double(w.check.expected));
        }
    }
    std::fflush(out);

    if (options.json_path.empty()) return true;
    nlohmann::json json;
    json["config"] = {{"streams", options.streams},
                      {"chunk_bytes", options.chunk_bytes},
                      {"chunks_per_stream", options.chunks},
                      {"kernels", nlohmann::json::array()},
                      {"element", layout.element == Element::f32 ? "float" : "half"},
                      {"blocks", options.blocks},
                      {"devices", options.devices},
                      {"repetitions", options.repetitions},
                      {"priorities", nlohmann::json::array()}};
    for (Kernel kernel : options.kernels) json["config"]["kernels"].push_back(kernel_name(kernel));
    for (std::uint32_t s = 0; s < options.streams; ++s) json["config"]["priorities"].push_back(options.priority_of(s));
    json["machine"] = {{"hardware_threads", ideal.threads},
                       {"foreign_load", results.foreign_load ? nlohmann::json(*results.foreign_load) : nlohmann::json()}};
    auto mode = [&](const std::vector<RunTimes>& runs, double ms) {
        return nlohmann::json{{"run_ms", spans(runs)},
                              {"median_run_ms", ms},
                              {"gb_per_s", ms > 0 ? data / (ms * 1e-3) / 1e9 : 0.0},
                              {"chunks_per_s", ms > 0 ? chunks / (ms * 1e-3) : 0.0}};
    };
    json["pipelined"] = mode(results.pipelined, pipelined_ms);
    json["one_stream"] = mode(results.one_stream, one_stream_ms);
    json["stages"] = nlohmann::json::array();
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const Stage& stage = stages[i];
        json["stages"].push_back({{"name", stage.name},
                                  {"kernel", i == 0 || i + 2 >= stages.size() ? nullptr
                                                                             : nlohmann::json(kernel_name(options.kernels[i - 1]))},
                                  {"p50_ms", percentile(stage.pipelined, 0.5)},
                                  {"p99_ms", percentile(stage.pipelined, 0.99)},
                                  {"mean_ms", mean(stage.pipelined)},
                                  {"one_stream_p50_ms", percentile(stage.one_stream, 0.5)},
                                  {"one_stream_p99_ms", percentile(stage.one_stream, 0.99)},
                                  {"one_stream_mean_ms", mean(stage.one_stream)}});
    }
    json["overlap"] = {{"efficiency", overlap},
                       {"ideal", ideal.speedup},
                       {"share_of_ideal", ideal.speedup > 0 ? overlap / ideal.speedup : 0.0},
                       {"work_bound_ms", ideal.core_bound_ms},
                       {"stream_bound_ms", ideal.stream_bound_ms},
                       {"min_streams_threads", naive_ideal}};
    json["verification"] = {{"verified_chunks", results.verified_chunks},
                            {"runs", results.verified_runs},
                            {"passed", results.wrong.empty()},
                            {"wrong", nlohmann::json::array()}};
    for (const WrongChunk& w : results.wrong) {
        json["verification"]["wrong"].push_back({{"run", w.run},
                                                 {"stream", w.stream},
                                                 {"chunk", w.chunk},
                                                 {"wrong_elements", w.check.wrong},
                                                 {"first_wrong_element", w.check.first_wrong}});
    }
    json["profile"] = nlohmann::json::array();
    double profiled = 0;
    for (const ProfileRow& row : results.profile) profiled += row.total_us;
    for (const ProfileRow& row : results.profile) {
        json["profile"].push_back({{"type", row.type},
                                   {"kind", row.kind},
                                   {"count", row.count},
                                   {"total_us", row.total_us},
                                   {"mean_us", row.mean_us()},
                                   {"min_us", row.min_us},
                                   {"max_us", row.max_us},
                                   {"share", profiled > 0 ? row.total_us / profiled : 0.0}});
    }
    if (options.json_to_stdout()) {
        std::cout << json.dump(2) << std::endl;
        return static_cast<bool>(std::cout);
    }
    std::ofstream file(options.json_path);
    file << json.dump(2) << '\n';
    return static_cast<bool>(file);
}

}  // namespace canopy_bench
