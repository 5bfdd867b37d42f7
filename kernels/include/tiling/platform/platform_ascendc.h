#pragma once
// tiling/platform/platform_ascendc.h: what a host tiling function asks of the SoC it computes for.
// Canopy models one SoC, the Ascend910B4 unless CANOPY_SOC_VERSION names another (canopy/soc.h:
// its cube cores (AIC), vector cores (AIV), L2 and HBM), and per core the memories of its part
// (Atlas A2, dav-2201, or Ascend 950, dav-3510: L1 / L0A / L0B / L0C / bias table / fixpipe buffer
// and the Unified Buffer of a launch), the sizes the kernel side enforces for that part.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "canopy/soc.h"

namespace fe {
class PlatFormInfos;
}

// The architecture of the SoC, as CANN numbers it.
enum class NpuArch : uint32_t {
    DAV_2201 = 2201,
    DAV_3510 = 3510,
    DAV_RESV = 0xFFFFFFFF,
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


class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    // The modelled part's platform.
    explicit PlatformAscendC(fe::PlatFormInfos* platformInfo)
        : PlatformAscendC(platformInfo, canopy::soc::modelled()) {}
    PlatformAscendC(fe::PlatFormInfos* platformInfo, const canopy::soc::Model& soc)
        : platformInfo_(platformInfo), soc_(&soc) {}

    // On the A2 and the 950 (separated cube and vector cores) GetCoreNum counts the vector cores.
    uint32_t GetCoreNum() const { return soc_->vector_cores; }
    uint32_t GetCoreNumAic() const { return soc_->cube_cores; }
    uint32_t GetCoreNumAiv() const { return soc_->vector_cores; }
    // The vector cores of the older coupled parts (310P); the A2 and the 950 have none of that kind.
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

    uint32_t GetLibApiWorkSpaceSize() const { return soc_->part->lib_api_workspace; }

    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::L0_A: size = soc_->part->l0a_bytes; break;
            case CoreMemType::L0_B: size = soc_->part->l0b_bytes; break;
            case CoreMemType::L0_C: size = soc_->part->l0c_bytes; break;
            case CoreMemType::L1: size = soc_->part->l1_bytes; break;
            case CoreMemType::L2: size = soc_->l2_bytes; break;
            case CoreMemType::UB: size = soc_->part->ub_bytes - reservedMemSize_; break;
            case CoreMemType::HBM: size = soc_->hbm_bytes; break;
            // CANN answers the platform's fb0_size and bt_size (platform_ascendc.cpp).
            case CoreMemType::FB: size = soc_->part->fb0_bytes; break;
            case CoreMemType::BT: size = soc_->part->bias_table_bytes; break;
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

    // The part's Short_SoC_version as CANN maps it (Ascend910B, Ascend950).
    SocVersion GetSocVersion() const {
        return soc_->part == &canopy::soc::ascend950 ? SocVersion::ASCEND950 : SocVersion::ASCEND910B;
    }
    NpuArch GetCurNpuArch() const { return static_cast<NpuArch>(soc_->part->npu_arch); }

private:
    fe::PlatFormInfos* platformInfo_;
    const canopy::soc::Model* soc_;
    uint32_t reservedMemSize_ = 0;
};

// The process's PlatformAscendC. GetInstance() answers for the modelled SoC; GetInstance(name)
// for that SoC when Canopy models it (canopy/soc.h), for the modelled one when the name is another
// Ascend910B variant Canopy has no figures for, and nullptr for any other SoC.
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
    static PlatformAscendC* GetInstance(const char* customSocVersion) {
        using namespace canopy::soc;
        const Model* named = find(customSocVersion);
        if (customSocVersion != nullptr && named == nullptr && std::strncmp(customSocVersion, "Ascend910B", 10) != 0) {
            return nullptr;
        }
        static PlatformAscendC modelled_platform(nullptr);
        if (named == nullptr || named == &modelled()) return &modelled_platform;
        static std::vector<PlatformAscendC> platforms = [] {
            std::vector<PlatformAscendC> all;
            all.reserve(sizeof(models) / sizeof(models[0]));
            for (const Model& model : models) all.emplace_back(nullptr, model);
            return all;
        }();
        return &platforms[static_cast<std::size_t>(named - models)];
    }

private:
    PlatformAscendCManager();
    ~PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
