// Host program in plain C++ over the negate kernel library; prints [SUCCESS] when every element
// came back negated.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

uint32_t LaunchNegate(int32_t* data, uint32_t blocks, uint32_t perBlock, aclrtStream stream);

int main()
{
    constexpr uint32_t blocks = 4;
    constexpr uint32_t perBlock = 100;
    std::vector<int32_t> host(blocks * perBlock);
    for (size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<int32_t>(i) * 3 - 7;
    }
    const size_t bytes = host.size() * sizeof(int32_t);
    void* device = nullptr;
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
        LaunchNegate(static_cast<int32_t*>(device), blocks, perBlock, stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::printf("[ERROR] %s\n", aclGetRecentErrMsg());
        return 1;
    }
    std::vector<int32_t> result(host.size());
    aclrtMemcpy(result.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    for (size_t i = 0; i < host.size(); ++i) {
        if (result[i] != -host[i]) {
            std::printf("[ERROR] element %zu is %d, expected %d\n", i, result[i], -host[i]);
            return 1;
        }
    }
    aclrtFree(device);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("[SUCCESS] negate_kernels negated %zu elements\n", host.size());
    return 0;
}
