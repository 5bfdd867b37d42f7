// The modelled part chosen by CANOPY_SOC_VERSION. The variable is read once per process, so each
// case runs in a process of its own with the variable set (test/CMakeLists.txt runs this binary
// once per case, filtered to it); each case first checks that it got the environment it needs.
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "support.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace canopy_test;

namespace {
void require_environment(const char* soc) {
    const char* set = std::getenv("CANOPY_SOC_VERSION");
    REQUIRE_MESSAGE((set != nullptr && std::strcmp(set, soc) == 0), "run with CANOPY_SOC_VERSION=" << soc);
}
}  // namespace

TEST_CASE("CANOPY_SOC_VERSION=Ascend910B1: the runtime and the tiling platform answer for the 910B1") {
    require_environment("Ascend910B1");
    // Known before aclInit, as build scripts ask for it.
    CHECK(std::string(aclrtGetSocName()) == "Ascend910B1");
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    CHECK(platform->GetCoreNumAic() == 24);
    CHECK(platform->GetCoreNumAiv() == 48);
    CHECK(platform->GetCoreNum() == 48);
    uint64_t size = 0;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L2, size);
    CHECK(size == 192ull << 20);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::HBM, size);
    CHECK(size == 64ull << 30);
    // The per-core memories are the A2's on every part.
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, size);
    CHECK(size == 512 * 1024);
    // A named part answers for itself.
    auto* b4 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B4");
    REQUIRE(b4 != nullptr);
    CHECK(b4->GetCoreNumAic() == 20);
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1") == platform);
    // A tiling without SetDim splits over the part's cube cores.
    matmul_tiling::MultiCoreMatmulTiling tiling;
    CHECK(tiling.blockDim == 24);

    REQUIRE_ACL(aclInit(nullptr));
    int64_t value = -1;
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
    CHECK(value == 24);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
    CHECK(value == 48);
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 24));
    CHECK_ACL_CODE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 49), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("the cores of Ascend910B1") != std::string::npos);
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
}

TEST_CASE("CANOPY_SOC_VERSION naming no modelled part: aclInit and an implicit start refuse it") {
    require_environment("Ascend310P3");
    CHECK_ACL_CODE(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    const std::string message = recent_error();
    CHECK(message.find("CANOPY_SOC_VERSION: \"Ascend310P3\" is not a part Canopy models") != std::string::npos);
    CHECK(message.find("Ascend910B4") != std::string::npos);
    CHECK_ACL_CODE(aclrtSetDevice(0), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("CANOPY_SOC_VERSION=Ascend950PR_9599: the runtime and the tiling platform answer for the 950") {
    require_environment("Ascend950PR_9599");
    CHECK(std::string(aclrtGetSocName()) == "Ascend950PR_9599");
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    // hicann/runtime's platform file Ascend950PR_9599.ini: cube_core_cnt, vector_core_cnt, l2_size,
    // memory_size and [AICoreSpec].
    CHECK(platform->GetCoreNumAic() == 36);
    CHECK(platform->GetCoreNumAiv() == 72);
    CHECK(platform->GetCoreNum() == 72);
    CHECK(platform->GetSocVersion() == platform_ascendc::SocVersion::ASCEND950);
    CHECK(platform->GetCurNpuArch() == NpuArch::DAV_3510);
    CHECK(platform->GetLibApiWorkSpaceSize() == 16u << 20);
    const std::pair<platform_ascendc::CoreMemType, uint64_t> sizes[] = {
        {platform_ascendc::CoreMemType::L0_A, 65536},     {platform_ascendc::CoreMemType::L0_B, 65536},
        {platform_ascendc::CoreMemType::L0_C, 262144},    {platform_ascendc::CoreMemType::L1, 524288},
        {platform_ascendc::CoreMemType::L2, 134217728},   {platform_ascendc::CoreMemType::UB, 253952},
        {platform_ascendc::CoreMemType::HBM, 128ull << 30}, {platform_ascendc::CoreMemType::BT, 4096},
        {platform_ascendc::CoreMemType::FB, 4096},
    };
    for (const auto& [type, expected] : sizes) {
        uint64_t size = 0;
        platform->GetCoreMemSize(type, size);
        CHECK_MESSAGE(size == expected, "CoreMemType " << static_cast<int>(type));
    }
    platform->ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_8K);
    uint64_t ub = 0;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    CHECK(ub == 253952 - 8192);
    // Another 950 SoC answers for itself; an A2 SoC too, with its own part.
    auto* dt = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend950DT_950x");
    REQUIRE(dt != nullptr);
    CHECK(dt->GetCoreNumAic() == 8);
    CHECK(dt->GetCoreNumAiv() == 16);
    auto* b1 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    REQUIRE(b1 != nullptr);
    CHECK(b1->GetCurNpuArch() == NpuArch::DAV_2201);
    CHECK(b1->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
    uint64_t l0c = 0;
    b1->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    CHECK(l0c == 131072);
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3") == nullptr);
    // A tiling without SetDim splits over the 950's cube cores, with its buffers.
    matmul_tiling::MultiCoreMatmulTiling tiling;
    CHECK(tiling.blockDim == 36);

    int32_t compatible = -1;
    CHECK_ACL(aclrtCheckArchCompatibility("Ascend950DT_9591", &compatible));
    CHECK(compatible == 1);
    CHECK_ACL(aclrtCheckArchCompatibility("Ascend910B4", &compatible));
    CHECK(compatible == 0);

    REQUIRE_ACL(aclInit(nullptr));
    int64_t value = -1;
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value));
    CHECK(value == 36);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
    CHECK(value == 36);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value));
    CHECK(value == 72);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &value));
    CHECK(value == 3510);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &value));
    CHECK(value == 248 * 1024);
    CHECK_ACL_CODE(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &value), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(recent_error().find("which Canopy does not model") != std::string::npos);
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 72));
    CHECK_ACL_CODE(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 37), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("the cores of Ascend950PR_9599") != std::string::npos);
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
}

TEST_CASE("CANOPY_SOC_VERSION unset: the Ascend910B4, an Atlas A2 part") {
    const char* set = std::getenv("CANOPY_SOC_VERSION");
    REQUIRE_MESSAGE((set == nullptr || *set == '\0'), "run with CANOPY_SOC_VERSION unset or empty");
    CHECK(std::string(aclrtGetSocName()) == "Ascend910B4");
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    CHECK(platform->GetCurNpuArch() == NpuArch::DAV_2201);
    CHECK(platform->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B);
    // hicann/runtime's Ascend910B4.ini: ub_size, l0_c_size, bt_size, fb0_size.
    const std::pair<platform_ascendc::CoreMemType, uint64_t> sizes[] = {
        {platform_ascendc::CoreMemType::UB, 196608}, {platform_ascendc::CoreMemType::L0_C, 131072},
        {platform_ascendc::CoreMemType::BT, 1024},   {platform_ascendc::CoreMemType::FB, 2048},
    };
    for (const auto& [type, expected] : sizes) {
        uint64_t size = 0;
        platform->GetCoreMemSize(type, size);
        CHECK_MESSAGE(size == expected, "CoreMemType " << static_cast<int>(type));
    }
    // The 950 SoCs are named too, each answering for its own part.
    auto* a5 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend950PR_9599");
    REQUIRE(a5 != nullptr);
    CHECK(a5->GetCurNpuArch() == NpuArch::DAV_3510);
    CHECK(a5->GetCoreNumAic() == 36);
    // The part table's facts (canopy/soc.h) for the two parts.
    CHECK(canopy::soc::find_part(3510) == &canopy::soc::ascend950);
    CHECK(canopy::soc::find_part(2201) == &canopy::soc::atlas_a2);
    CHECK(canopy::soc::find_part(2002) == nullptr);
    CHECK(canopy::soc::models_part(3510));
    CHECK_FALSE(canopy::soc::models_part(2002));
    CHECK(canopy::soc::ascend950.vector_length_bytes == 256);
    CHECK(canopy::soc::atlas_a2.vector_length_bytes == 0);
    CHECK(std::string(canopy::soc::find("Ascend950PR_9599")->part->arch) == "dav-3510");
    REQUIRE_ACL(aclInit(nullptr));
    int64_t value = -1;
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &value));
    CHECK(value == 2201);
    CHECK_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &value));
    CHECK(value == 192 * 1024);
    CHECK_ACL(aclFinalize());
}
