// System facts: package versions, CANN feature attributes, architecture compatibility and device
// capabilities. Canopy installs one CANN package, the runtime; it reports the version of the CANN
// runtime whose interface it implements, so that programs choosing code paths by version take the
// ones Canopy has.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <cstring>

#include "api.h"
#include "canopy/soc.h"

namespace canopy::api {

namespace {
struct Package {
    const char* name;
    const char* version;
    int major, minor, patch;
};
constexpr Package runtime_package{"runtime", "9.1.0", 9, 1, 0};

const Package& find_package(const char* pkgName) {
    require(pkgName, "pkgName");
    // CANN accepts '-' and '_' alike in package names.
    std::string name(pkgName);
    std::replace(name.begin(), name.end(), '_', '-');
    if (name == runtime_package.name) return runtime_package;
    fail(ACL_ERROR_INVALID_PARAM, std::string("pkgName \"") + pkgName +
                                      "\" is not an installed package (Canopy installs \"runtime\")");
}

// Numeric versions weigh major, minor and patch so that later releases compare greater.
int32_t version_number(const Package& package) { return package.major * 10000000 + package.minor * 100000 + package.patch * 1000; }

// What Canopy's kernels support: IEEE inf / NaN results and bfloat16; no JIT compilation of ops.
constexpr aclCannAttr attributes[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};

int32_t attribute_value(aclCannAttr attr) {
    switch (raw_value(attr)) {
        case ACL_CANN_ATTR_INF_NAN: return 1;
        case ACL_CANN_ATTR_BF16: return 1;
        case ACL_CANN_ATTR_JIT_COMPILE: return 0;
        default: fail(ACL_ERROR_INVALID_PARAM, "cannAttr " + std::to_string(raw_value(attr)) + " is not an aclCannAttr");
    }
}
}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
    return call("aclsysGetVersionStr", [&] {
        require(versionStr, "versionStr");
        const Package& package = find_package(pkgName);
        std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", package.version);
    });
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
    return call("aclsysGetVersionNum", [&] {
        require(versionNum, "versionNum");
        *versionNum = version_number(find_package(pkgName));
    });
}

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
    return call("aclGetCannAttributeList", [&] {
        require(cannAttrList, "cannAttrList");
        require(num, "num");
        *cannAttrList = attributes;
        *num = std::size(attributes);
    });
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
    return call("aclGetCannAttribute", [&] {
        require(value, "value");
        *value = attribute_value(cannAttr);
    });
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
    return call("aclrtCheckArchCompatibility", [&] {
        require(socVersion, "socVersion");
        require(canCompatible, "canCompatible");
        // Kernels built for a SoC of the modelled SoC's part run on it (canopy/soc.h); so do those
        // built for an Ascend910B variant Canopy has no figures for, on an A2.
        const soc::Part& modelled = soc::modelled_part();
        const soc::Model* named = soc::find(socVersion);
        const bool compatible =
            named != nullptr ? named->part == &modelled
                             : &modelled == &soc::atlas_a2 &&
                                   std::strncmp(socVersion, "Ascend910B", std::strlen("Ascend910B")) == 0;
        *canCompatible = compatible ? 1 : 0;
    });
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) {
    return call("aclrtGetDeviceCapability", [&] {
        require(value, "value");
        State& s = state_or_implicit_init();
        if (deviceId < 0 || deviceId >= s.runtime.device_count()) {
            fail(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId " + std::to_string(deviceId) + " is not in [0, " +
                                                    std::to_string(s.runtime.device_count()) + ")");
        }
        switch (raw_value(devFeatureType)) {
            // Updating the tasks of a captured model on the task scheduler: Canopy has no capture yet.
            case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV: *value = ACL_DEV_FEATURE_NOT_SUPPORT; break;
            // Cross-device memory-queue events belong to the data-transfer queues Canopy lacks.
            case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV: *value = ACL_DEV_FEATURE_NOT_SUPPORT; break;
            default:
                fail(ACL_ERROR_INVALID_PARAM,
                     "devFeatureType " + std::to_string(raw_value(devFeatureType)) + " is not an aclrtDevFeatureType");
        }
    });
}

}  // extern "C"
