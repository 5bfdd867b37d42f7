#pragma once
// The results: throughput, per-stage latency percentiles, overlap efficiency against the ideal for
// this machine, verification; printed as a table and written as JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layout.h"
#include "machine_load.h"
#include "options.h"
#include "pipeline.h"
#include "timeline.h"

namespace canopy_bench {

// An output chunk that did not match its reference.
struct WrongChunk {
    std::string run;
    std::uint32_t stream = 0;
    std::uint32_t chunk = 0;
    ChunkCheck check;
};

struct Results {
    std::vector<RunTimes> pipelined;   // measured runs
    std::vector<RunTimes> one_stream;  // measured runs
    std::vector<WrongChunk> wrong;
    std::uint64_t verified_chunks = 0;
    std::uint32_t verified_runs = 0;
    std::vector<ProfileRow> profile;  // from the runtime's timeline of the whole process
    std::optional<double> foreign_load;  // MachineLoad::foreign_share over the measured runs
};

// p in [0, 1], nearest rank.
double percentile(std::vector<double> samples, double p);

// Writes the table to stdout; the JSON file too when options.json_path is set (returns false if it
// cannot be written).
bool report(const Options& options, const Layout& layout, const Results& results);

}  // namespace canopy_bench
