// Launches the kernels of an ascendc_library through the generated launch functions, both by name
// (aclrtlaunch_<kernel>) and with ACLRT_LAUNCH_KERNEL, and checks every element computed.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "check.h"
#include "scale_tiling.h"
#include "aclrtlaunch_iota.h"
#include "aclrtlaunch_scale.h"

int main()
{
    constexpr uint32_t blocks = 8;
    constexpr uint32_t perBlock = 64;
    constexpr uint32_t count = blocks * perBlock;
    constexpr size_t bytes = count * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> x(count);
    for (uint32_t i = 0; i < count; ++i) {
        x[i] = static_cast<float>(i) * 0.5f;
    }
    void* xDevice = nullptr;
    void* yDevice = nullptr;
    void* iotaDevice = nullptr;
    CHECK_ACL(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&iotaDevice, count * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    ScaleTiling tiling{3.0f, perBlock};
    CHECK_ACL(aclrtlaunch_scale(blocks, stream, xDevice, yDevice, &tiling));
    CHECK_ACL(ACLRT_LAUNCH_KERNEL(iota)(blocks, stream, iotaDevice, 100, perBlock));
    // A launch the runtime rejects reports its code through the generated function too.
    const uint32_t rejected = ACLRT_LAUNCH_KERNEL(iota)(0, stream, iotaDevice, 0, perBlock);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    std::vector<float> y(count);
    std::vector<int32_t> sequence(count);
    CHECK_ACL(aclrtMemcpy(y.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtMemcpy(sequence.data(), count * sizeof(int32_t), iotaDevice, count * sizeof(int32_t),
                          ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (y[i] != x[i] * 3.0f || sequence[i] != static_cast<int32_t>(100 + i)) {
            ++wrong;
        }
    }

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(iotaDevice));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());

    if (rejected == 0) {
        std::printf("[ERROR] a launch with 0 blocks was accepted\n");
        return 1;
    }
    if (wrong != 0) {
        std::printf("[ERROR] %u of %u elements are wrong\n", wrong, count);
        return 1;
    }
    std::printf("[SUCCESS] aclrtlaunch launches computed %u elements\n", count);
    return 0;
}
