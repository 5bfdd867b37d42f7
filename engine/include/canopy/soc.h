#pragma once
// The SoC the device models: an Atlas A2 part (arch 2201), by default the Ascend910B4. Programs
// size their launches and tilings by its core counts, so a program written for another A2 part
// (the official samples hard-code the 910B1's 24 cube cores) runs as written when the
// environment names that part: CANOPY_SOC_VERSION=Ascend910B1. The figures are those of CANN's
// platform configuration for each part; the per-core memories are the same on all of them.
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace canopy::soc {

struct Model {
    const char* name;
    std::uint32_t cube_cores;
    std::uint32_t vector_cores;
    std::uint64_t l2_bytes;
    std::uint64_t hbm_bytes;
};

inline constexpr std::uint64_t mib = 1024ull * 1024;
inline constexpr Model models[] = {
    {"Ascend910B1", 24, 48, 192 * mib, 64 * 1024 * mib},
    {"Ascend910B2", 24, 48, 192 * mib, 64 * 1024 * mib},
    {"Ascend910B3", 20, 40, 192 * mib, 64 * 1024 * mib},
    {"Ascend910B4", 20, 40, 96 * mib, 32 * 1024 * mib},
};
inline constexpr const Model& default_model = models[3];
inline constexpr std::int64_t npu_arch = 2201;
inline constexpr const char* environment_variable = "CANOPY_SOC_VERSION";

// The model called `name`, or nullptr.
inline const Model* find(const char* name) {
    if (name == nullptr) return nullptr;
    for (const Model& model : models) {
        if (std::strcmp(model.name, name) == 0) return &model;
    }
    return nullptr;
}

// What CANOPY_SOC_VERSION asks for, when it names no model; nullptr otherwise. aclInit refuses it.
inline const char* unknown_request() {
    const char* requested = std::getenv(environment_variable);
    return requested != nullptr && *requested != '\0' && find(requested) == nullptr ? requested : nullptr;
}

// The modelled SoC, read from the environment once per process (an unknown name leaves the default).
inline const Model& modelled() {
    static const Model* const model = [] {
        const Model* requested = find(std::getenv(environment_variable));
        return requested != nullptr ? requested : &default_model;
    }();
    return *model;
}

}  // namespace canopy::soc
