// Loads the kernel binary of an ascendc_fatbin_library with aclrtBinaryLoadFromFile, finds a
// kernel by name and launches it with a packed argument blob, as the official samples do.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "check.h"

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::printf("usage: %s <kernel binary>\n", argv[0]);
        return 2;
    }
    constexpr uint32_t blocks = 4;
    constexpr uint32_t perBlock = 32;
    constexpr uint32_t count = blocks * perBlock;
    constexpr size_t bytes = count * sizeof(int32_t);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    aclrtBinHandle binary = nullptr;
    CHECK_ACL(aclrtBinaryLoadFromFile(argv[1], nullptr, &binary));
    aclrtFuncHandle function = nullptr;
    CHECK_ACL(aclrtBinaryGetFunction(binary, "iota", &function));

    void* yDevice = nullptr;
    CHECK_ACL(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    // iota(int32_t* y, int32_t base, uint32_t elementsPerBlock): the pointer at 0, the scalars at 8 and 12.
    struct {
        void* y;
        int32_t base;
        uint32_t elementsPerBlock;
    } arguments{yDevice, -7, perBlock};
    CHECK_ACL(aclrtLaunchKernel(function, blocks, &arguments, sizeof(arguments), stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<int32_t> y(count);
    CHECK_ACL(aclrtMemcpy(y.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (y[i] != static_cast<int32_t>(i) - 7) {
            ++wrong;
        }
    }

    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtBinaryUnLoad(binary));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());

    if (wrong != 0) {
        std::printf("[ERROR] %u of %u elements are wrong\n", wrong, count);
        return 1;
    }
    std::printf("[SUCCESS] the loaded kernel binary computed %u elements\n", count);
    return 0;
}
