#pragma once
// tiling/platform/platform_ascendc.h: what a host tiling function asks of the SoC it computes for.
// Canopy models an Atlas A2 part (arch 2201), the Ascend910B4 unless CANOPY_SOC_VERSION names
// another (canopy/soc.h: its cube cores (AIC), vector cores (AIV), L2 and HBM), and per core
// the memories the kernel side enforces (kernel_operator.h's L1 / L0A / L0B / L0C / bias table /
// fixpipe buffer capacities and the Unified Buffer of a launch), the same on every A2 part.
#include <cstdint>
#include <cstring>
#include <mutex>

#include "canopy/soc.h"

namespace fe {
class PlatFormInfos;
}

// The architecture of the SoC, as CANN numbers it.
enum class NpuArch : uint32_t {
    DAV_2201 = 2201,
};

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND310P,
    ASCEND310B,
    ASCEND950,
    ASCEND910_55,
    ASCEND910_95 = ASCEND950,
    AS31XM1,
    ASCEND031,
    ASCEND035,
    ASCEND310,
    ASCEND610,
    ASCEND610Lite,
    ASCEND910_93,
    BS9SX1A,
    BS9SX2A,
    HI3796CV300CS,
    HI3796CV300ES,
    MC61AM21A,
    MC62,
    SD3403,
    KIRINX90,
    KIRIN9030,
    MC32DM11A,
    ASCEND350,
    RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

// An A2 core's memories.
namespace soc_a2 {
inline constexpr uint64_t kL0A = 64 * 1024;
inline constexpr uint64_t kL0B = 64 * 1024;
inline constexpr uint64_t kL0C = 128 * 1024;
inline constexpr uint64_t kL1 = 512 * 1024;
inline constexpr uint64_t kUB = 192 * 1024;
inline constexpr uint64_t kFixpipeBuffer = 4096;
inline constexpr uint64_t kBiasTable = 1024;
inline constexpr uint32_t kLibApiWorkspace = 16 * 1024 * 1024;  // the system workspace of the lib APIs
}  // namespace soc_a2

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    // The modelled part's platform.
    explicit PlatformAscendC(fe::PlatFormInfos* platformInfo)
        : PlatformAscendC(platformInfo, canopy::soc::modelled()) {}
    PlatformAscendC(fe::PlatFormInfos* platformInfo, const canopy::soc::Model& soc)
        : platformInfo_(platformInfo), soc_(&soc) {}

    // On the A2 (separated cube and vector cores) GetCoreNum counts the vector cores.
    uint32_t GetCoreNum() const { return soc_->vector_cores; }
    uint32_t GetCoreNumAic() const { return soc_->cube_cores; }
    uint32_t GetCoreNumAiv() const { return soc_->vector_cores; }
    // The vector cores of the older coupled parts (310P); the A2 has none of that kind.
    uint32_t GetCoreNumVector() const { return 0; }

    // The launch size for `sliceNum` slices of a mix kernel using aicCoreNum AIC and aivCoreNum AIV
    // cores: with both kinds, one logical core takes aiv / aic vector slices.
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        const uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }

    uint32_t GetLibApiWorkSpaceSize() const { return soc_a2::kLibApiWorkspace; }

    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::L0_A: size = soc_a2::kL0A; break;
            case CoreMemType::L0_B: size = soc_a2::kL0B; break;
            case CoreMemType::L0_C: size = soc_a2::kL0C; break;
            case CoreMemType::L1: size = soc_a2::kL1; break;
            case CoreMemType::L2: size = soc_->l2_bytes; break;
            case CoreMemType::UB: size = soc_a2::kUB - reservedMemSize_; break;
            case CoreMemType::HBM: size = soc_->hbm_bytes; break;
            case CoreMemType::FB: size = soc_a2::kFixpipeBuffer; break;
            case CoreMemType::BT: size = soc_a2::kBiasTable; break;
            default: size = 0; break;
        }
    }

    // Keeps `size` of the UB out of what GetCoreMemSize(UB) answers.
    void ReserveLocalMemory(ReservedSize size) {
        switch (size) {
            case ReservedSize::RESERVED_SIZE_8K: reservedMemSize_ = 8 * 1024; break;
            case ReservedSize::RESERVED_SIZE_16K: reservedMemSize_ = 16 * 1024; break;
            case ReservedSize::RESERVED_SIZE_32K: reservedMemSize_ = 32 * 1024; break;
        }
    }

    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }

private:
    fe::PlatFormInfos* platformInfo_;
    const canopy::soc::Model* soc_;
    uint32_t reservedMemSize_ = 0;
};

// The process's PlatformAscendC. GetInstance() answers for the modelled SoC; GetInstance(name)
// for that Ascend910B part (the modelled one for a name Canopy has no figures for) and nullptr for
// any other SoC.
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
    static PlatformAscendC* GetInstance(const char* customSocVersion) {
        using namespace canopy::soc;
        if (customSocVersion != nullptr && std::strncmp(customSocVersion, "Ascend910B", 10) != 0) return nullptr;
        static PlatformAscendC modelled_platform(nullptr);
        const Model* named = find(customSocVersion);
        if (named == nullptr || named == &modelled()) return &modelled_platform;
        static PlatformAscendC platforms[] = {{nullptr, models[0]}, {nullptr, models[1]}, {nullptr, models[2]},
                                              {nullptr, models[3]}};
        static_assert(sizeof(platforms) / sizeof(platforms[0]) == sizeof(models) / sizeof(models[0]));
        return &platforms[named - models];
    }

private:
    PlatformAscendCManager();
    ~PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
