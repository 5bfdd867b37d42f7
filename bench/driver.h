#pragma once
// Shared benchmark driver. A benchmark named "<case>/canopy" is compared with its baseline
// "<case>/baseline" from the same run: after the usual output the driver prints one line per case
// with the ratio of their median (or only) real times, so figures stay meaningful on a noisy VM.
#include <benchmark/benchmark.h>

namespace canopy::bench {
// How a case is judged: Canopy's time over the baseline's must stay below `at_most`; for
// throughput cases (bytes or items per second), the baseline's time over Canopy's must stay above
// `at_least`.
void register_target(const char* name, double at_most, double at_least = 0.0);
}  // namespace canopy::bench
