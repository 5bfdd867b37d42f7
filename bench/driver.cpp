#include "driver.h"

#include <malloc.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace canopy::bench {

namespace {
struct Target {
    double at_most;
    double at_least;
};

std::map<std::string, Target>& targets() {
    static std::map<std::string, Target> all;
    return all;
}

// Keeps the console output and remembers, per benchmark name, the median (when repetitions are
// asked for) or the single run's real time per iteration.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.error_occurred) continue;
            const std::string name = run.run_name.function_name;
            const bool aggregate = run.run_type == Run::RT_Aggregate;
            if (aggregate && run.aggregate_name != "median") continue;
            if (!aggregate && medians_.count(name) && has_median_.count(name)) continue;
            medians_[name] = run.GetAdjustedRealTime();
            if (aggregate) has_median_[name] = true;
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\n%-44s %12s %12s %8s  %s\n", "case", "canopy", "baseline", "ratio", "target");
        for (const auto& [name, time] : medians_) {
            const auto slash = name.rfind("/canopy");
            if (slash == std::string::npos || slash + 7 != name.size()) continue;
            const std::string base = name.substr(0, slash);
            auto baseline = medians_.find(base + "/baseline");
            if (baseline == medians_.end()) continue;
            const double ratio = time / baseline->second;
            auto target = targets().find(base);
            std::string verdict = "-";
            if (target != targets().end()) {
                if (target->second.at_least > 0) {
                    const double throughput = 1.0 / ratio;
                    verdict = std::string(throughput >= target->second.at_least ? "met" : "MISSED") +
                              " (throughput >= " + std::to_string(target->second.at_least).substr(0, 4) + "x)";
                } else {
                    verdict = std::string(ratio <= target->second.at_most ? "met" : "MISSED") + " (time <= " +
                              std::to_string(target->second.at_most).substr(0, 4) + "x)";
                }
            }
            std::printf("%-44s %12.4g %12.4g %8.3f  %s\n", base.c_str(), time, baseline->second, ratio,
                        verdict.c_str());
        }
    }

private:
    std::map<std::string, double> medians_;
    std::map<std::string, bool> has_median_;
};
}  // namespace

void register_target(const char* name, double at_most, double at_least) {
    targets()[name] = Target{at_most, at_least};
}

}  // namespace canopy::bench

int main(int argc, char** argv) {
    // First touch of a page costs about 15 us on this VM: keep freed memory in the process so that
    // every iteration after the first runs on warm pages, for Canopy and baselines alike.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    canopy::bench::RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
