// The host side of catlass's examples against an install: the headers its examples/common/helper.hpp
// includes, the CANN version read from ASCEND_HOME_PATH as its get_cann_version_and_soc_name.cpp does
// (sscanf_s of libc_sec), and the hardware sync address its kernels are given. Built by run.sh with the
// libraries catlass's examples link.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <acl/acl.h>
#include <opdev/bfloat16.h>
#include <opdev/fp16_t.h>
#include <securec.h>
#include <tiling/platform/platform_ascendc.h>

int main()
{
    const char* home = std::getenv("ASCEND_HOME_PATH");
    const char* start = home != nullptr ? std::strstr(home, "/cann-") : nullptr;
    if (start == nullptr) {
        std::printf("[ERROR] ASCEND_HOME_PATH (%s) has no /cann-<version> component\n", home ? home : "unset");
        return 1;
    }
    char version[100] = {0};
    if (sscanf_s(start + 6, "%99[^/]", version, 100) != 1) {
        std::printf("[ERROR] sscanf_s read no version from %s\n", start);
        return 1;
    }
    const op::fp16_t half = static_cast<op::fp16_t>(0.1f);
    const op::bfloat16 brain = static_cast<op::bfloat16>(3.0f);
    if (half.val != 0x2E66 || static_cast<float>(half * static_cast<op::fp16_t>(2)) != 0.199951171875f ||
        brain.value != 0x4040) {
        std::printf("[ERROR] fp16_t or bfloat16 converted 0.1 to 0x%04x and 3 to 0x%04x\n", half.val, brain.value);
        return 1;
    }
    const uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic();
    if (aclrtSetDevice(0) != ACL_SUCCESS) {
        std::printf("[ERROR] aclrtSetDevice: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    void* sync = nullptr;
    const aclError got = aclrtGetHardwareSyncAddr(&sync);
    uint64_t first = 1;
    const aclError read = aclrtMemcpy(&first, sizeof first, sync, sizeof first, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtResetDevice(0);
    if (got != ACL_SUCCESS || read != ACL_SUCCESS || first != 0) {
        std::printf("[ERROR] aclrtGetHardwareSyncAddr %d, reading it %d, first word %llu\n", got, read,
                    static_cast<unsigned long long>(first));
        return 1;
    }
    std::printf("%s %s\n", version, aclrtGetSocName());
    std::printf("[SUCCESS] catlass's host side: CANN %s, %u cube cores\n", version, cores);
    return 0;
}
