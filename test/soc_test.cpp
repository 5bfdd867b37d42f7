// The modelled part chosen by CANOPY_SOC_VERSION. The variable is read once per process, so each
// case runs in a process of its own with the variable set (test/CMakeLists.txt runs this binary
// once per case, filtered to it); each case first checks that it got the environment it needs.
#include <cstdlib>
#include <cstring>
#include <string>

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
