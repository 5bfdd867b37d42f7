/*
 * A host program in the shape of the official add_custom samples, built with canopy_add_kernels
 * and run by ctest: it launches through the sample's add_custom_do function and directly with
 * <<<>>>, and returns non-zero when z differs from x + y.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "kernel_operator.h"

#define CHECK_ACL(x)                                                                        \
    do {                                                                                    \
        aclError __ret = x;                                                                 \
        if (__ret != ACL_ERROR_NONE) {                                                      \
            std::fprintf(stderr, "%s:%d aclError:%d %s\n", __FILE__, __LINE__, __ret,       \
                         aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");                 \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

extern void add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);

namespace {
int32_t verify(const float* x, const float* y, const float* z, size_t count, const char* how)
{
    size_t wrong = 0;
    for (size_t i = 0; i < count; i++) {
        if (z[i] != x[i] + y[i]) wrong++;
    }
    if (wrong != 0) {
        std::fprintf(stderr, "[Failed] %s: %zu of %zu elements wrong\n", how, wrong, count);
        return 1;
    }
    std::printf("[Success] %s: %zu elements\n", how, count);
    return 0;
}
}  // namespace

int32_t main(int32_t argc, char* argv[])
{
    (void)argc;
    (void)argv;
    uint32_t blockDim = 8;
    size_t count = 8 * 2048;
    size_t inputByteSize = count * sizeof(float);
    size_t outputByteSize = count * sizeof(float);

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    float *xHost, *yHost, *zHost;
    uint8_t *xDevice, *yDevice, *zDevice;
    CHECK_ACL(aclrtMallocHost((void**)(&xHost), inputByteSize));
    CHECK_ACL(aclrtMallocHost((void**)(&yHost), inputByteSize));
    CHECK_ACL(aclrtMallocHost((void**)(&zHost), outputByteSize));
    CHECK_ACL(aclrtMalloc((void**)&xDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&yDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&zDevice, outputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    for (size_t i = 0; i < count; i++) {
        xHost[i] = static_cast<float>(i % 97) * 0.5f;
        yHost[i] = static_cast<float>(i % 13) - 6.0f;
    }
    CHECK_ACL(aclrtMemcpy(xDevice, inputByteSize, xHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, inputByteSize, yHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    add_custom_do(blockDim, stream, xDevice, yDevice, zDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(zHost, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    int32_t failed = verify(xHost, yHost, zHost, count, "add_custom_do");

    CHECK_ACL(aclrtMemset(zDevice, outputByteSize, 0, outputByteSize));
    // The launch is a statement (the kernel returns void): whether it was enqueued is the last error.
    add_custom<<<blockDim, nullptr, stream>>>(xDevice, yDevice, zDevice);
    CHECK_ACL(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(zHost, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    failed |= verify(xHost, yHost, zHost, count, "add_custom<<<>>>");

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    return failed;
}
