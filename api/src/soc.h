#pragma once
// The part Canopy models: an Atlas A2 training chip (arch 2201). Its name and core counts are what
// programs read to size launches; the CPU's own concurrency is the device's worker count.
#include <cstdint>

namespace canopy::api::soc {

inline constexpr const char* name = "Ascend910B4";
inline constexpr std::uint32_t cube_cores = 20;
inline constexpr std::uint32_t vector_cores = 40;
inline constexpr std::int64_t npu_arch = 2201;

}  // namespace canopy::api::soc
