#include "machine_load.h"

#include <algorithm>
#include <fstream>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace canopy_bench {

MachineLoad::MachineLoad() : start_(sample()) {}

std::optional<MachineLoad::Sample> MachineLoad::sample() {
    std::ifstream stat("/proc/stat");
    std::string label;
    // The first line sums every CPU: user nice system idle iowait irq softirq steal (in clock ticks).
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || label != "cpu")
        return std::nullopt;
    Sample s;
    s.busy_ticks = user + nice + system + irq + softirq + steal;
    s.all_ticks = s.busy_ticks + idle + iowait;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    s.own_cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                        double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    return s;
}

std::optional<double> MachineLoad::foreign_share() const {
    const std::optional<Sample> end = sample();
    if (!start_ || !end || end->all_ticks <= start_->all_ticks) return std::nullopt;
    const double ticks_per_second = double(sysconf(_SC_CLK_TCK));
    const double own_ticks = (end->own_cpu_seconds - start_->own_cpu_seconds) * ticks_per_second;
    const double foreign = double(end->busy_ticks - start_->busy_ticks) - own_ticks;
    return std::clamp(foreign / double(end->all_ticks - start_->all_ticks), 0.0, 1.0);
}

}  // namespace canopy_bench
