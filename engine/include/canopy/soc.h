#pragma once
// The parts Canopy models and the SoCs of each. A part is an NPU architecture as CANN numbers it
// (__NPU_ARCH__, bisheng's --npu-arch): its per-core memories and vector length are the same on
// every SoC of the part. Two parts: Atlas A2 (dav-2201) and Ascend 950 (dav-3510). A SoC is one
// product of a part, with its own core counts, L2 and HBM; the runtime models one SoC, by default
// the Ascend910B4 or the Ascend950PR_9599 as the program's kernels are built for the A2 or the 950,
// another when the environment names it (CANOPY_SOC_VERSION=Ascend910B1, for a program that
// hard-codes the 910B1's 24 cube cores).
// A kernel is built for one part (canopy-asc --npu-arch) and launches only on a runtime that models
// a SoC of that part.
//
// Sources of the figures (read, not copied):
//   [ini]   hicann/runtime src/platform/platform_config/cann{,-dev}/<SoC>.ini, CANN's platform
//           configuration of each SoC: [version] NpuArch, Short_SoC_version; [SoCInfo]
//           cube_core_cnt, vector_core_cnt, l2_size, memory_size; [AICoreSpec] ub_size, l1_size,
//           l0_a_size, l0_b_size, l0_c_size, bt_size, fb0_size .. fb3_size, vector_reg_width.
//   [const] asc-devkit impl/basic_api/utils/kernel_utils_constants.h, the kernel API's sizes per
//           __NPU_ARCH__ (TOTAL_UB_SIZE, TOTAL_L1_SIZE, TOTAL_L0C_SIZE, TOTAL_VEC_LOCAL_SIZE,
//           VECTOR_REG_WIDTH; TOTAL_L0A_SIZE / TOTAL_L0B_SIZE for all).
//   [plat]  asc-devkit impl/utils/tiling/platform/platform_ascendc.cpp: the SoCs of each
//           Short_SoC_version (convertMapInAicpu: ascend910b_list, ascend950_list), the SocVersion
//           of each, GetCoreMemSize (FB answers fb0_size, BT bt_size), GetLibApiWorkSpaceSize
//           (WORK_SPACE_SIZE_910B, WORK_SPACE_SIZE_950).
//   [sys]   asc-devkit include/basic_api/kernel_operator_sys_var_intf.h: GetVecLen() and
//           GetUBSizeInBytes() answer VECTOR_REG_WIDTH and TOTAL_UB_SIZE on 3510, 0 on 2201.
//   [arch]  asc-devkit .agent/skills/asc-npu-arch/references/npu-arch-guide.md: the SoCs and
//           SocVersion of each __NPU_ARCH__.
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace canopy::soc {

inline constexpr std::uint64_t kib = 1024;
inline constexpr std::uint64_t mib = 1024 * kib;
inline constexpr std::uint64_t gib = 1024 * mib;

// One modelled architecture: what every SoC of it has per core.
struct Part {
    const char* arch;               // bisheng's --npu-arch
    std::int64_t npu_arch;          // __NPU_ARCH__, ACL_DEV_ATTR_NPU_ARCH, PlatformAscendC::GetCurNpuArch
    const char* family;             // the product line, for messages
    const char* short_soc_version;  // [version] Short_SoC_version: PlatformAscendC::GetSocVersion
    std::uint64_t ub_bytes;         // Unified Buffer of a vector core: a launch's UB, GetCoreMemSize(UB)
    std::uint64_t l1_bytes;         // L1 of a cube core
    std::uint64_t l0a_bytes;
    std::uint64_t l0b_bytes;
    std::uint64_t l0c_bytes;
    std::uint64_t bias_table_bytes;      // BT (Mmad's bias row), GetCoreMemSize(BT)
    std::uint64_t fixpipe_bytes;         // the whole fixpipe buffer: fb0 + fb1 + fb2 + fb3
    std::uint64_t fb0_bytes;             // GetCoreMemSize(FB)
    std::uint32_t vector_length_bytes;   // GetVecLen(): a vector register (0 on parts without them)
    // The kernel API's own constants (kernel_operator.h) where they differ from the memories.
    std::uint64_t kernel_l1_bytes;       // TOTAL_L1_SIZE
    std::uint64_t vec_local_bytes;       // TOTAL_VEC_LOCAL_SIZE
    std::uint32_t lib_api_workspace;     // GetLibApiWorkSpaceSize: the lib APIs' system workspace
};

// Atlas A2 training / inference (Ascend910B1 .. B4): dav-2201, bisheng's dav-c220-cube / -vec.
inline constexpr Part atlas_a2{
    "dav-2201", 2201, "Atlas A2", "Ascend910B",
    192 * kib,            // [ini] ub_size=196608; [const] TOTAL_UB_SIZE = 192 * 1024
    512 * kib,            // [ini] l1_size=524288
    64 * kib, 64 * kib,   // [ini] l0_a_size, l0_b_size = 65536
    128 * kib,            // [ini] l0_c_size=131072; [const] TOTAL_L0C_SIZE = 128 * 1024
    1 * kib,              // [ini] bt_size=1024
    7 * kib,              // [ini] fb0..fb3 = 2048 + 1024 + 2048 + 2048
    2 * kib,              // [ini] fb0_size=2048
    0,                    // [sys] GetVecLen() is 0 off the register-based parts
    512 * kib - 128,      // [const] TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE (128)
    184 * kib,            // [const] TOTAL_VEC_LOCAL_SIZE = 184 * 1024
    16 * 1024 * 1024,     // [plat] WORK_SPACE_SIZE_910B
};

// Ascend 950 (Ascend950PR / Ascend950DT, "A5"): dav-3510, bisheng's dav-c310-cube / -vec
// ([ini] CCEC_AIC_version, CCEC_AIV_version).
inline constexpr Part ascend950{
    "dav-3510", 3510, "Ascend 950", "Ascend950",
    248 * kib,            // [ini] ub_size=253952; [const] TOTAL_UB_SIZE = 248 * 1024
    512 * kib,            // [ini] l1_size=524288
    64 * kib, 64 * kib,   // [ini] l0_a_size, l0_b_size = 65536
    256 * kib,            // [ini] l0_c_size=262144; [const] TOTAL_L0C_SIZE = 256 * 1024
    4 * kib,              // [ini] bt_size=4096
    6 * kib,              // [ini] fb0..fb3 = 4096 + 2048 + 0 + 0 (CANN's CPU model allots 16 KiB)
    4 * kib,              // [ini] fb0_size=4096
    256,                  // [ini] vector_reg_width=256; [const] VECTOR_REG_WIDTH = 256
    512 * kib,            // [const] TOTAL_L1_SIZE = 512 * 1024
    248 * kib,            // [const] TOTAL_VEC_LOCAL_SIZE = 248 * 1024
    16 * 1024 * 1024,     // [plat] WORK_SPACE_SIZE_950
};

inline constexpr const Part* parts[] = {&atlas_a2, &ascend950};

// The part of an __NPU_ARCH__ value, or nullptr.
constexpr const Part* find_part(std::int64_t npu_arch) {
    for (const Part* part : parts) {
        if (part->npu_arch == npu_arch) return part;
    }
    return nullptr;
}

// Whether a part with this __NPU_ARCH__ is modelled (a bool, so that a static_assert on it draws no
// -Waddress from g++ as a comparison of find_part's constant address would).
constexpr bool models_part(std::int64_t npu_arch) {
    for (const Part* part : parts) {
        if (part->npu_arch == npu_arch) return true;
    }
    return false;
}

// The largest value of a Part's `field` over the parts.
constexpr std::uint64_t largest(std::uint64_t Part::*field) {
    std::uint64_t result = 0;
    for (const Part* part : parts) result = part->*field > result ? part->*field : result;
    return result;
}

// One SoC: its part and what differs between the SoCs of a part ([ini] cube_core_cnt,
// vector_core_cnt, l2_size, memory_size).
struct Model {
    const char* name;
    std::uint32_t cube_cores;
    std::uint32_t vector_cores;
    std::uint64_t l2_bytes;
    std::uint64_t hbm_bytes;
    const Part* part;
};

// The A2 SoCs, then the 950 SoCs in the order of [plat]'s ascend950_list.
inline constexpr Model models[] = {
    {"Ascend910B1", 24, 48, 192 * mib, 64 * gib, &atlas_a2},
    {"Ascend910B2", 24, 48, 192 * mib, 64 * gib, &atlas_a2},
    {"Ascend910B3", 20, 40, 192 * mib, 64 * gib, &atlas_a2},
    {"Ascend910B4", 20, 40, 96 * mib, 32 * gib, &atlas_a2},
    {"Ascend950PR_9599", 36, 72, 134217728ull, 137438953472ull, &ascend950},
    // Ascend950PR_958a: listed, but hicann/runtime has no platform file for it
    {"Ascend950PR_9589", 32, 64, 134217728ull, 137438953472ull, &ascend950},
    {"Ascend950PR_958b", 32, 64, 117440512ull, 120259084288ull, &ascend950},
    {"Ascend950PR_9579", 28, 56, 134217728ull, 137438953472ull, &ascend950},
    {"Ascend950PR_957b", 28, 56, 117440512ull, 120259084288ull, &ascend950},
    {"Ascend950PR_957bx", 28, 56, 117440512ull, 120259084288ull, &ascend950},
    {"Ascend950PR_957c", 28, 56, 117440512ull, 90194313216ull, &ascend950},
    {"Ascend950PR_957d", 28, 56, 100663296ull, 103079215104ull, &ascend950},
    {"Ascend950PR_950z", 4, 8, 16777216ull, 25769803776ull, &ascend950},
    {"Ascend950DT_950x", 8, 16, 33554432ull, 25769803776ull, &ascend950},
    {"Ascend950DT_950y", 8, 16, 33554432ull, 17179869184ull, &ascend950},
    {"Ascend950DT_95A1", 36, 72, 134217728ull, 154618822656ull, &ascend950},
    {"Ascend950DT_95A2", 36, 72, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9591", 36, 72, 134217728ull, 154618822656ull, &ascend950},
    {"Ascend950DT_9592", 36, 72, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9595", 36, 72, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9596", 36, 72, 134217728ull, 68719476736ull, &ascend950},
    {"Ascend950DT_9581", 32, 64, 134217728ull, 154618822656ull, &ascend950},
    {"Ascend950DT_9582", 32, 64, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9582x", 32, 64, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9583", 32, 64, 117440512ull, 135291469824ull, &ascend950},
    {"Ascend950DT_9584", 32, 64, 117440512ull, 90194313216ull, &ascend950},
    {"Ascend950DT_9585", 32, 64, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9586", 32, 64, 134217728ull, 68719476736ull, &ascend950},
    {"Ascend950DT_9587", 32, 64, 117440512ull, 90194313216ull, &ascend950},
    {"Ascend950DT_9588", 32, 64, 117440512ull, 60129542144ull, &ascend950},
    {"Ascend950DT_9571", 28, 56, 134217728ull, 154618822656ull, &ascend950},
    {"Ascend950DT_9572", 28, 56, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9573", 28, 56, 117440512ull, 135291569824ull, &ascend950},
    {"Ascend950DT_9574", 28, 56, 117440512ull, 90194313216ull, &ascend950},
    {"Ascend950DT_9575", 28, 56, 134217728ull, 103079215104ull, &ascend950},
    {"Ascend950DT_9576", 28, 56, 134217728ull, 68719476736ull, &ascend950},
    {"Ascend950DT_9577", 28, 56, 117440512ull, 90194313216ull, &ascend950},
    {"Ascend950DT_9578", 28, 56, 117440512ull, 60129542144ull, &ascend950},
};
inline constexpr const Model& default_model = models[3];
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

// The modelled SoC, chosen once per process, at its first use: the one CANOPY_SOC_VERSION names;
// else, when the kernels the program has loaded are all built for one part (note_program_part), that
// part's default SoC (the Ascend910B4 for dav-2201, the Ascend950PR_9599 for dav-3510), as a program
// built for the 950 runs on a 950; else the Ascend910B4. The choice is libascendcl's, so that the
// runtime and the host code's tiling answer for the same SoC; each module finds the model by its
// name in its own copy of the table (addresses of the table differ between modules).
__attribute__((visibility("default"))) const char* modelled_name();
inline const Model& modelled() {
    static const Model& model = *find(modelled_name());
    return model;
}

// Records that the program holds kernels built for the part with this __NPU_ARCH__ (each kernel
// translation unit does, as it loads: canopy/kernel/launch.h). A kernel of another part than the one
// chosen fails its launch naming both.
__attribute__((visibility("default"))) void note_program_part(std::uint32_t npu_arch) noexcept;

// The modelled SoC's part.
inline const Part& modelled_part() { return *modelled().part; }

}  // namespace canopy::soc
