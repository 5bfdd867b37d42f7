#pragma once
// How busy other processes kept the machine during the run. The overlap figure measures how well
// the pipeline fills idle hardware threads, so a run on a loaded machine reads low without Canopy
// being at fault; the report says so instead of leaving the user to guess.
#include <optional>

namespace canopy_bench {

class MachineLoad {
public:
    MachineLoad();  // starts the interval

    // The share (0 to 1) of all hardware threads' time since construction that went to other
    // processes or to the hypervisor (steal): the machine's busy time from /proc/stat minus this
    // process's CPU time. Empty where /proc/stat cannot be read.
    std::optional<double> foreign_share() const;

private:
    struct Sample {
        unsigned long long busy_ticks = 0, all_ticks = 0;
        double own_cpu_seconds = 0;
    };
    static std::optional<Sample> sample();
    std::optional<Sample> start_;
};

// Above this share the report warns that the overlap is unreliable.
inline constexpr double loaded_machine_share = 0.2;

}  // namespace canopy_bench
