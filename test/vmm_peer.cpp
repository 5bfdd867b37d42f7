// The other process of virtual_memory_test's two-process cases. Usage:
//   vmm_peer import <shareable handle>   prints "pid <pid>", waits for a line on stdin, then imports
//                                        the handle, maps it, prints "read <first int>", writes
//                                        <first int> + 1 and prints "wrote", or "error <code> <text>".
//   vmm_peer ipc-import <key>            as import, with device memory shared by key.
//   vmm_peer ipc-export <int>            prints "key <k>" of device memory holding <int>, exits at once.
//   vmm_peer export <int>               exports physical memory holding <int> (pid validation off),
//                                        prints "handle <h>" and exits at once (a dying exporter).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#include "acl/acl.h"

namespace {
int report(aclError code) {
    const char* message = aclGetRecentErrMsg();
    std::printf("error %d %s\n", code, message ? message : "");
    std::fflush(stdout);
    return 1;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 3;
    aclError rc;
    aclrtPhysicalMemProp prop = {};
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.memAttr = ACL_HBM_MEM_NORMAL;
    size_t granularity = 0;
    if ((rc = aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity))) return report(rc);
    if (std::strcmp(argv[1], "export") == 0) {
        aclrtDrvMemHandle handle = nullptr;
        void* va = nullptr;
        if ((rc = aclrtMallocPhysical(&handle, granularity, &prop, 0))) return report(rc);
        if ((rc = aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0))) return report(rc);
        if ((rc = aclrtMapMem(va, granularity, 0, handle, 0))) return report(rc);
        const int value = std::atoi(argv[2]);
        if ((rc = aclrtMemcpy(va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE))) return report(rc);
        uint64_t shareable = 0;
        if ((rc = aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE,
                                                  ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &shareable)))
            return report(rc);
        std::printf("handle %llu\n", static_cast<unsigned long long>(shareable));
        std::fflush(stdout);
        _exit(0);  // dies without freeing anything: the importer must get an error, not a hang
    }
    if (std::strcmp(argv[1], "ipc-export") == 0) {
        void* device = nullptr;
        if ((rc = aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST))) return report(rc);
        const int value = std::atoi(argv[2]);
        if ((rc = aclrtMemcpy(device, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE))) return report(rc);
        char key[65] = {};
        if ((rc = aclrtIpcMemGetExportKey(device, 4096, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)))
            return report(rc);
        std::printf("key %s\n", key);
        std::fflush(stdout);
        _exit(0);
    }
    std::printf("pid %d\n", static_cast<int>(getpid()));
    std::fflush(stdout);
    char line[64];
    if (!std::fgets(line, sizeof line, stdin)) return 4;
    if (std::strcmp(argv[1], "ipc-import") == 0) {
        void* device = nullptr;
        if ((rc = aclrtIpcMemImportByKey(&device, argv[2], 0))) return report(rc);
        int value = 0;
        if ((rc = aclrtMemcpy(&value, sizeof value, device, sizeof value, ACL_MEMCPY_DEVICE_TO_HOST))) return report(rc);
        std::printf("read %d\n", value);
        ++value;
        if ((rc = aclrtMemcpy(device, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE))) return report(rc);
        std::printf("wrote\n");
        std::fflush(stdout);
        if ((rc = aclrtIpcMemClose(argv[2]))) return report(rc);
        aclrtResetDevice(0);
        aclFinalize();
        return 0;
    }
    const uint64_t shareable = std::strtoull(argv[2], nullptr, 10);
    aclrtDrvMemHandle handle = nullptr;
    if ((rc = aclrtMemImportFromShareableHandle(shareable, 0, &handle))) return report(rc);
    void* va = nullptr;
    if ((rc = aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0))) return report(rc);
    if ((rc = aclrtMapMem(va, granularity, 0, handle, 0))) return report(rc);
    int value = 0;
    if ((rc = aclrtMemcpy(&value, sizeof value, va, sizeof value, ACL_MEMCPY_DEVICE_TO_HOST))) return report(rc);
    std::printf("read %d\n", value);
    ++value;
    if ((rc = aclrtMemcpy(va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE))) return report(rc);
    std::printf("wrote\n");
    std::fflush(stdout);
    if ((rc = aclrtUnmapMem(va)) || (rc = aclrtReleaseMemAddress(va)) || (rc = aclrtFreePhysical(handle))) return report(rc);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
