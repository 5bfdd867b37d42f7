// System facts: aclsysGetVersionStr / Num, aclGetCannAttributeList / aclGetCannAttribute,
// aclrtCheckArchCompatibility, aclrtGetDeviceCapability.
#include <cstring>
#include <set>

#include "support.h"

using namespace canopy_test;

TEST_CASE("the runtime package's version as a string and as an ordered number") {
    Initialized init;
    char name[] = "runtime";
    char version[ACL_PKG_VERSION_MAX_SIZE] = {};
    CHECK_ACL(aclsysGetVersionStr(name, version));
    CHECK(std::string(version) == "9.1.0");
    int32_t number = 0;
    CHECK_ACL(aclsysGetVersionNum(name, &number));
    CHECK(number == 9 * 10000000 + 1 * 100000);

    char unknown[] = "driver";
    CHECK_ACL_CODE(aclsysGetVersionStr(unknown, version), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("driver") != std::string::npos);
    CHECK_ACL_CODE(aclsysGetVersionNum(nullptr, &number), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclsysGetVersionNum(name, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclsysGetVersionStr(name, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("CANN attributes: the list and each attribute's value") {
    Initialized init;
    const aclCannAttr* list = nullptr;
    size_t count = 0;
    CHECK_ACL(aclGetCannAttributeList(&list, &count));
    REQUIRE(count == 3);
    std::set<int> listed(list, list + count);
    CHECK(listed == std::set<int>{ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE});
    int32_t value = -1;
    CHECK_ACL(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &value));
    CHECK(value == 1);
    CHECK_ACL(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &value));
    CHECK(value == 1);
    CHECK_ACL(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &value));
    CHECK(value == 0);
    CHECK_ACL_CODE(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclGetCannAttributeList(nullptr, &count), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("architecture compatibility follows the Ascend910B family") {
    int32_t compatible = -1;
    CHECK_ACL(aclrtCheckArchCompatibility(aclrtGetSocName(), &compatible));
    CHECK(compatible == 1);
    CHECK_ACL(aclrtCheckArchCompatibility("Ascend910B1", &compatible));
    CHECK(compatible == 1);
    CHECK_ACL(aclrtCheckArchCompatibility("Ascend310P3", &compatible));
    CHECK(compatible == 0);
    CHECK_ACL_CODE(aclrtCheckArchCompatibility(nullptr, &compatible), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCheckArchCompatibility("Ascend910B4", nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("aclrtGetDeviceCapability answers for known features and rejects others") {
    Runtime rt;
    int32_t value = -1;
    CHECK_ACL(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &value));
    CHECK(value == ACL_DEV_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(5), &value), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtGetDeviceCapability(4, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &value),
                   ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, nullptr),
                   ACL_ERROR_INVALID_PARAM);
}
