// The choice of the modelled SoC (canopy/soc.h).
#include "canopy/soc.h"

#include <atomic>
#include <limits>

namespace canopy::soc {
namespace {
// The __NPU_ARCH__ of the program's kernels: 0 while none is noted, `mixed` once two parts are.
constexpr std::uint32_t mixed = std::numeric_limits<std::uint32_t>::max();
std::atomic<std::uint32_t> program_arch{0};

const Model& default_model_of(std::uint32_t npu_arch) {
    if (default_model.part->npu_arch == static_cast<std::int64_t>(npu_arch)) return default_model;
    for (const Model& model : models) {
        if (model.part->npu_arch == static_cast<std::int64_t>(npu_arch)) return model;
    }
    return default_model;
}
}  // namespace

void note_program_part(std::uint32_t npu_arch) noexcept {
    std::uint32_t noted = 0;
    if (!program_arch.compare_exchange_strong(noted, npu_arch) && noted != npu_arch) program_arch.store(mixed);
}

const char* modelled_name() {
    static const char* const name = [] {
        if (const Model* requested = find(std::getenv(environment_variable))) return requested->name;
        const std::uint32_t arch = program_arch.load();
        return (arch == 0 || arch == mixed ? default_model : default_model_of(arch)).name;
    }();
    return name;
}

}  // namespace canopy::soc
