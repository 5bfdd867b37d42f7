#pragma once
// The timeline and the profile of a program: an engine::Observer that records every operation,
// kernel block and marker into per-thread buffers, and writes them when the trace stops as
//   <file>.json                 Chrome trace event format (Perfetto, chrome://tracing)
//   op_summary_<stem>.csv       one row per operation, msprof's op_summary columns
//   op_statistic_<stem>.csv     per operation type, msprof's op_statistic columns
// (<stem>: the trace file's name without ".json" and without a "msprof_" prefix).
// A trace is started by the runtime (the aclInit "trace" option or CANOPY_TRACE) or by aclprofStart.
#include <cstdint>
#include <string>

namespace canopy::engine {
class Stream;
struct RuntimeConfig;
}  // namespace canopy::engine

namespace canopy::engine::trace {

enum class Owner { runtime, profiler };

// Starts recording into `path`; false (nothing changes) if a trace is already recording.
bool start(const std::string& path, Owner owner);
// Stops the trace if `owner` started it and writes the files; returns an error text (empty when
// written, or when no trace of that owner was recording).
std::string stop(Owner owner);
// A new timeline's path in `directory`, named as msprof names its timeline after the local time:
// msprof_<yyyymmddhhmmss><ms>.json (msprof_<...>_<n>.json when that file exists).
std::string msprof_path(const std::string& directory);
// Whether a trace is recording, and who started it.
bool active();
bool active(Owner owner);

// The runtime's trace: started when the runtime starts (config.trace, else CANOPY_TRACE), stopped
// and written at aclFinalize; a program that never finalizes gets it written at exit.
void runtime_started(const engine::RuntimeConfig& config);
void runtime_finalized();

// Markers (msproftx, mstx) on the track of `stream` (nullptr: the calling thread's track), kept
// only while a trace records. `category` names the marker's source ("msproftx", an mstx domain).
void mark(const char* category, const char* message, const engine::Stream* stream);
// A range from now to range_end(id); returns its id (never 0). Ends may come from any thread.
std::uint64_t range_start(const char* category, const char* message, const engine::Stream* stream);
// False when no range `id` is open.
bool range_end(std::uint64_t id);

}  // namespace canopy::engine::trace
