#pragma once
// What canopy-bench reads back from the runtime's timeline (the Chrome trace JSON that Canopy
// writes at aclFinalize when CANOPY_TRACE is set): the profile per kernel and copy direction, and
// an SVG Gantt chart of the streams. Only the file format is shared with the runtime.
#include <cstdint>
#include <string>
#include <vector>

namespace canopy_bench {

// One kernel or copy direction over all the operations of the run.
struct ProfileRow {
    std::string type;  // the kernel's name, or "memcpy H2D" and so on
    std::string kind;  // "kernel", "memcpy", "memset"
    std::uint64_t count = 0;
    double total_us = 0, min_us = 0, max_us = 0;
    double mean_us() const { return count ? total_us / double(count) : 0; }
};

struct Timeline {
    struct Slice {
        int device = 0, stream = 0;
        std::string name, kind;
        double begin_us = 0, duration_us = 0;
    };
    std::vector<Slice> slices;  // the operations on the streams' tracks
};

// Reads the trace; throws std::runtime_error naming the file when it is missing or malformed.
Timeline read_timeline(const std::string& path);

// Kernels and copies, the longest total first.
std::vector<ProfileRow> profile(const Timeline& timeline);

// A standalone SVG: one row per stream, a rectangle per operation coloured by its kind, a time axis.
// False if the file cannot be written.
bool write_svg(const Timeline& timeline, const std::string& path);

}  // namespace canopy_bench
