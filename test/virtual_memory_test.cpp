// Virtual memory management: aclrtMemGetAllocationGranularity, aclrtReserveMemAddress /
// aclrtReleaseMemAddress, aclrtMallocPhysical / aclrtFreePhysical, aclrtMapMem / aclrtUnmapMem,
// aclrtMemSetAccess / aclrtMemGetAccess, aclrtMemRetainAllocationHandle, and the sharing of physical
// memory with another process (aclrtMemExportToShareableHandle, aclrtMemSetPidToShareableHandle,
// aclrtMemImportFromShareableHandle), with vmm_peer as the other process.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <cstring>

#include "support.h"

using namespace canopy_test;

namespace {

aclrtPhysicalMemProp device_prop(uint32_t device = 0) {
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_NORMAL;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

size_t granularity() {
    aclrtPhysicalMemProp prop = device_prop();
    size_t value = 0;
    CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &value));
    return value;
}

struct Physical {
    explicit Physical(size_t size) {
        aclrtPhysicalMemProp prop = device_prop();
        REQUIRE_ACL(aclrtMallocPhysical(&handle, size, &prop, 0));
    }
    ~Physical() {
        if (handle) aclrtFreePhysical(handle);
    }
    aclrtDrvMemHandle handle = nullptr;
};

struct Reserved {
    explicit Reserved(size_t size) { REQUIRE_ACL(aclrtReserveMemAddress(&va, size, 0, nullptr, 0)); }
    ~Reserved() {
        if (va) aclrtReleaseMemAddress(va);
    }
    char* at(size_t offset) const { return static_cast<char*>(va) + offset; }
    void* va = nullptr;
};

int read_int(const void* device) {
    int value = -1;
    CHECK_ACL(aclrtMemcpy(&value, sizeof value, device, sizeof value, ACL_MEMCPY_DEVICE_TO_HOST));
    return value;
}

// vmm_peer with its stdin and stdout on pipes; killed and reaped at the end of the test.
class Peer {
public:
    Peer(const char* mode, const std::string& argument) {
        int in[2], out[2];
        REQUIRE(pipe(in) == 0);
        REQUIRE(pipe(out) == 0);
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            execl(CANOPY_VMM_PEER, CANOPY_VMM_PEER, mode, argument.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = in[1];
        from_ = out[0];
    }
    ~Peer() {
        close(to_);
        close(from_);
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    // The next line the peer prints ("" when it exits or stays silent for the suite's bound).
    std::string line() {
        std::string text;
        for (;;) {
            pollfd ready{from_, POLLIN, 0};
            if (poll(&ready, 1, kBoundMs) != 1) return text;
            char c;
            if (read(from_, &c, 1) != 1 || c == '\n') return text;
            text += c;
        }
    }
    void go() { REQUIRE(write(to_, "go\n", 3) == 3); }
    // Exit status once the peer ends by itself.
    int wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t pid_ = -1;
    int to_ = -1, from_ = -1;
};

}  // namespace

TEST_CASE("the granularity is 2 MiB for both options") {
    Runtime runtime;
    aclrtPhysicalMemProp prop = device_prop();
    size_t minimum = 0, recommended = 0;
    REQUIRE_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &minimum));
    REQUIRE_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &recommended));
    CHECK(minimum == (size_t{2} << 20));
    CHECK(recommended == minimum);
}

TEST_CASE("mapped memory is device memory: copies, memsets and asynchronous work reach it") {
    Runtime runtime;
    Stream stream;
    const size_t g = granularity();
    Physical physical(2 * g);
    Reserved reserved(2 * g);
    REQUIRE_ACL(aclrtMapMem(reserved.va, 2 * g, 0, physical.handle, 0));
    std::vector<int> host(2 * g / sizeof(int));
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
    REQUIRE_ACL(aclrtMemcpy(reserved.va, 2 * g, host.data(), 2 * g, ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE_ACL(aclrtMemsetAsync(reserved.at(g), g, 0x7f, 4, stream));
    std::vector<int> back(host.size());
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    REQUIRE_ACL(aclrtMemcpy(back.data(), 2 * g, reserved.va, 2 * g, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(back[1] == 1);
    CHECK(back[g / sizeof(int)] == 0x7f7f7f7f);
    CHECK(back[g / sizeof(int) + 1] == static_cast<int>(g / sizeof(int) + 1));
    // A copy past the mapping fails as for any device allocation.
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), 2 * g + 4, reserved.va, 2 * g + 4, ACL_MEMCPY_DEVICE_TO_HOST),
                   ACL_ERROR_RT_PARAM_INVALID);
    // The kind is checked against it: host memory as dst of a device-to-host copy is fine, as src it is not.
    CHECK_ACL_CODE(aclrtMemcpy(reserved.va, 4, host.data(), 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    // aclrtFree does not take it.
    CHECK(aclrtFree(reserved.va) != ACL_SUCCESS);
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
}

TEST_CASE("two ranges mapped to the same physical memory show the same bytes") {
    Runtime runtime;
    const size_t g = granularity();
    Physical physical(2 * g);
    Reserved first(2 * g), second(g);
    REQUIRE_ACL(aclrtMapMem(first.va, 2 * g, 0, physical.handle, 0));
    REQUIRE_ACL(aclrtMapMem(second.va, g, g, physical.handle, 0));  // the second half only
    const int value = 4242;
    REQUIRE_ACL(aclrtMemcpy(second.va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(read_int(first.at(g)) == 4242);
    REQUIRE_ACL(aclrtMemcpy(first.at(g), sizeof value, first.va, sizeof value, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK(read_int(second.va) == 0);  // physical memory starts zeroed
    REQUIRE_ACL(aclrtUnmapMem(first.va));
    REQUIRE_ACL(aclrtUnmapMem(second.va));
}

TEST_CASE("physical memory outlives its handle while it is mapped") {
    Runtime runtime;
    const size_t g = granularity();
    Reserved reserved(g);
    {
        Physical physical(g);
        REQUIRE_ACL(aclrtMapMem(reserved.va, g, 0, physical.handle, 0));
    }
    const int value = 7;
    REQUIRE_ACL(aclrtMemcpy(reserved.va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(read_int(reserved.va) == 7);
    aclrtDrvMemHandle retained = nullptr;
    REQUIRE_ACL(aclrtMemRetainAllocationHandle(reserved.at(16), &retained));
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
    // An unmapped range is device memory that is not allocated.
    CHECK_ACL_CODE(aclrtMemcpy(reserved.va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("not allocated") != std::string::npos);
    // Mapped again through the retained handle, the bytes are still there.
    REQUIRE_ACL(aclrtMapMem(reserved.va, g, 0, retained, 0));
    CHECK(read_int(reserved.va) == 7);
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
    REQUIRE_ACL(aclrtFreePhysical(retained));
}

TEST_CASE("access is recorded per device and read back") {
    Runtime runtime;
    const size_t g = granularity();
    Physical physical(2 * g);
    Reserved reserved(2 * g);
    REQUIRE_ACL(aclrtMapMem(reserved.va, g, 0, physical.handle, 0));
    REQUIRE_ACL(aclrtMapMem(reserved.at(g), g, g, physical.handle, 0));
    aclrtMemAccessDesc desc = {};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    REQUIRE_ACL(aclrtMemSetAccess(reserved.va, 2 * g, &desc, 1));  // across both mappings
    aclrtMemLocation location = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flag = 0;
    REQUIRE_ACL(aclrtMemGetAccess(reserved.at(g + 8), &location, &flag));
    CHECK(flag == ACL_RT_MEM_ACCESS_FLAGS_READ);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    REQUIRE_ACL(aclrtMemSetAccess(reserved.va, g, &desc, 1));
    REQUIRE_ACL(aclrtMemGetAccess(reserved.va, &location, &flag));
    CHECK(flag == ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    REQUIRE_ACL(aclrtUnmapMem(reserved.at(g)));
    // A range not covered by mappings is refused.
    CHECK_ACL_CODE(aclrtMemSetAccess(reserved.va, 2 * g, &desc, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemGetAccess(reserved.at(g), &location, &flag), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
}

TEST_CASE("the error table") {
    Runtime runtime;
    const size_t g = granularity();
    aclrtPhysicalMemProp prop = device_prop();
    size_t value = 0;
    aclrtDrvMemHandle handle = nullptr;
    void* va = nullptr;
    CHECK_ACL_CODE(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &value), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &value), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("option") != std::string::npos);
    // Physical memory: sizes not multiples of the granularity, bad properties, flags.
    CHECK_ACL_CODE(aclrtMallocPhysical(nullptr, g, &prop, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, g, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, g + 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("granularity") != std::string::npos);
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, g, &prop, 1), ACL_ERROR_INVALID_PARAM);
    aclrtPhysicalMemProp bad = prop;
    bad.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, g, &bad, 0), ACL_ERROR_INVALID_PARAM);
    bad = prop;
    bad.location.id = 4096;
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, g, &bad, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ACL_CODE(aclrtMallocPhysical(&handle, size_t{1} << 50, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK(handle == nullptr);
    // Reservations.
    CHECK_ACL_CODE(aclrtReserveMemAddress(nullptr, g, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReserveMemAddress(&va, 0, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReserveMemAddress(&va, 100, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReserveMemAddress(&va, g, 3, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    int somewhere = 0;
    CHECK_ACL_CODE(aclrtReserveMemAddress(&va, g, 0, &somewhere, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReleaseMemAddress(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReleaseMemAddress(&somewhere), ACL_ERROR_INVALID_PARAM);
    // Mappings.
    Physical physical(2 * g);
    Reserved reserved(2 * g);
    CHECK_ACL_CODE(aclrtMapMem(nullptr, g, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, g, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, g, 0, &somewhere, 0), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, g + 1, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, g, 4096, physical.handle, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, 2 * g, g, physical.handle, 0), ACL_ERROR_INVALID_PARAM);  // past the memory
    CHECK_ACL_CODE(aclrtMapMem(reserved.at(4096), g, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);  // unaligned
    CHECK_ACL_CODE(aclrtMapMem(&somewhere, g, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);  // not reserved
    CHECK_ACL_CODE(aclrtMapMem(reserved.at(g), 2 * g, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);  // past the reservation
    CHECK_ACL_CODE(aclrtMapMem(reserved.va, g, 0, physical.handle, 1), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtMapMem(reserved.va, 2 * g, 0, physical.handle, 0));
    CHECK_ACL_CODE(aclrtMapMem(reserved.at(g), g, 0, physical.handle, 0), ACL_ERROR_INVALID_PARAM);  // overlaps
    CHECK(recent_error().find("mapping") != std::string::npos);
    CHECK_ACL_CODE(aclrtReleaseMemAddress(reserved.va), ACL_ERROR_INVALID_PARAM);  // still mapped
    CHECK_ACL_CODE(aclrtUnmapMem(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtUnmapMem(reserved.at(g)), ACL_ERROR_INVALID_PARAM);  // not the start of a mapping
    // Access descriptors.
    aclrtMemAccessDesc desc = {};
    desc.flags = static_cast<aclrtMemAccessFlags>(2);
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    CHECK_ACL_CODE(aclrtMemSetAccess(reserved.va, g, &desc, 1), ACL_ERROR_INVALID_PARAM);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    CHECK_ACL_CODE(aclrtMemSetAccess(reserved.va, g, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemSetAccess(reserved.va, g, &desc, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemSetAccess(reserved.va, 100, &desc, 1), ACL_ERROR_INVALID_PARAM);
    aclrtMemLocation location = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flag = 0;
    CHECK_ACL_CODE(aclrtMemGetAccess(reserved.va, nullptr, &flag), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemGetAccess(reserved.va, &location, nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
    // Shareable handles.
    uint64_t shareable = 0;
    CHECK_ACL_CODE(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 2, &shareable), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemExportToShareableHandle(nullptr, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable), ACL_ERROR_INVALID_PARAM);
    int32_t pid = 1;
    CHECK_ACL_CODE(aclrtMemSetPidToShareableHandle(12345, &pid, 1), ACL_ERROR_INVALID_PARAM);  // not exported
    REQUIRE_ACL(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
    CHECK(shareable != 0);
    CHECK_ACL_CODE(aclrtMemSetPidToShareableHandle(shareable, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemSetPidToShareableHandle(shareable, &pid, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemImportFromShareableHandle(shareable, 0, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemImportFromShareableHandle(shareable, -1, &handle), ACL_ERROR_RT_INVALID_DEVICEID);
    // A handle of this process whose random part is wrong names nothing.
    CHECK_ACL_CODE(aclrtMemImportFromShareableHandle(shareable ^ (uint64_t{1} << 40), 0, &handle), ACL_ERROR_INVALID_PARAM);
    // Freed: the handle stops resolving, and so does the shareable handle.
    aclrtDrvMemHandle freed = physical.handle;
    physical.handle = nullptr;
    REQUIRE_ACL(aclrtFreePhysical(freed));
    CHECK_ACL_CODE(aclrtFreePhysical(freed), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ACL_CODE(aclrtMemImportFromShareableHandle(shareable, 0, &handle), ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("an import in the exporting process maps the same memory") {
    Runtime runtime;
    const size_t g = granularity();
    Physical physical(g);
    uint64_t shareable = 0;
    REQUIRE_ACL(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
    aclrtDrvMemHandle imported = nullptr;
    REQUIRE_ACL(aclrtMemImportFromShareableHandle(shareable, 0, &imported));
    Reserved a(g), b(g);
    REQUIRE_ACL(aclrtMapMem(a.va, g, 0, physical.handle, 0));
    REQUIRE_ACL(aclrtMapMem(b.va, g, 0, imported, 0));
    const int value = 99;
    REQUIRE_ACL(aclrtMemcpy(a.va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(read_int(b.va) == 99);
    // An imported handle cannot be exported again.
    uint64_t again = 0;
    CHECK_ACL_CODE(aclrtMemExportToShareableHandle(imported, ACL_MEM_HANDLE_TYPE_NONE, 0, &again), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtUnmapMem(a.va));
    REQUIRE_ACL(aclrtUnmapMem(b.va));
    REQUIRE_ACL(aclrtFreePhysical(imported));
}

TEST_CASE("another process imports whitelisted memory and both see each other's writes") {
    Runtime runtime;
    const size_t g = granularity();
    Physical physical(g);
    Reserved reserved(g);
    REQUIRE_ACL(aclrtMapMem(reserved.va, g, 0, physical.handle, 0));
    const int value = 123;
    REQUIRE_ACL(aclrtMemcpy(reserved.va, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t shareable = 0;
    REQUIRE_ACL(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
    Peer peer("import", std::to_string(shareable));
    const std::string hello = peer.line();
    REQUIRE(hello.rfind("pid ", 0) == 0);
    int32_t pid = std::stoi(hello.substr(4));
    REQUIRE_ACL(aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
    peer.go();
    CHECK(peer.line() == "read 123");
    CHECK(peer.line() == "wrote");
    CHECK(peer.wait() == 0);
    CHECK(read_int(reserved.va) == 124);
    REQUIRE_ACL(aclrtUnmapMem(reserved.va));
}

TEST_CASE("a process not whitelisted is refused; without pid validation any process imports") {
    Runtime runtime;
    const size_t g = granularity();
    Physical physical(g);
    uint64_t shareable = 0;
    REQUIRE_ACL(aclrtMemExportToShareableHandle(physical.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
    {
        Peer peer("import", std::to_string(shareable));
        REQUIRE(peer.line().rfind("pid ", 0) == 0);
        peer.go();
        const std::string answer = peer.line();
        CHECK(answer.rfind("error " + std::to_string(ACL_ERROR_RT_NO_PERMISSION), 0) == 0);
        CHECK(answer.find("whitelisted") != std::string::npos);
        CHECK(peer.wait() == 1);
    }
    Physical open(g);
    REQUIRE_ACL(aclrtMemExportToShareableHandle(open.handle, ACL_MEM_HANDLE_TYPE_NONE,
                                                ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &shareable));
    Peer peer("import", std::to_string(shareable));
    REQUIRE(peer.line().rfind("pid ", 0) == 0);
    peer.go();
    CHECK(peer.line() == "read 0");
    CHECK(peer.line() == "wrote");
    CHECK(peer.wait() == 0);
}

TEST_CASE("the handle of an exporter that died gives an error, never a hang") {
    Runtime runtime;
    uint64_t shareable = 0;
    {
        Peer peer("export", "5");
        const std::string line = peer.line();
        REQUIRE(line.rfind("handle ", 0) == 0);
        shareable = std::stoull(line.substr(7));
        CHECK(peer.wait() == 0);
    }
    aclrtDrvMemHandle handle = nullptr;
    CHECK_ACL_CODE(aclrtMemImportFromShareableHandle(shareable, 0, &handle), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("no process") != std::string::npos);
}

// ---- device memory shared by key (aclrtIpcMem*) ----

TEST_CASE("device memory exported by key: another process whitelisted reads and writes it") {
    Runtime runtime;
    Stream stream;
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
    const int value = 55;
    REQUIRE_ACL(aclrtMemcpy(static_cast<char*>(device) + 4096, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    // Queued work on the memory before the export is kept: the export waits for it.
    REQUIRE_ACL(aclrtMemsetAsync(static_cast<char*>(device) + 4160, 4032, 1, 4032, stream));
    char key[65] = {};
    REQUIRE_ACL(aclrtIpcMemGetExportKey(static_cast<char*>(device) + 4096, 4096, key, sizeof key, 0));
    CHECK(std::strlen(key) > 32);
    // The bytes stay the allocation's.
    CHECK(read_int(static_cast<char*>(device) + 4096) == 55);
    unsigned char byte = 0;
    REQUIRE_ACL(aclrtMemcpy(&byte, 1, static_cast<char*>(device) + 8000, 1, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(byte == 1);
    {
        Peer peer("ipc-import", key);
        REQUIRE(peer.line().rfind("pid ", 0) == 0);
        peer.go();
        const std::string answer = peer.line();
        CHECK(answer.rfind("error " + std::to_string(ACL_ERROR_RT_NO_PERMISSION), 0) == 0);
        CHECK(peer.wait() == 1);
    }
    Peer peer("ipc-import", key);
    const std::string hello = peer.line();
    REQUIRE(hello.rfind("pid ", 0) == 0);
    int32_t pid = std::stoi(hello.substr(4));
    REQUIRE_ACL(aclrtIpcMemSetImportPid(key, &pid, 1));
    peer.go();
    CHECK(peer.line() == "read 55");
    CHECK(peer.line() == "wrote");
    CHECK(peer.wait() == 0);
    CHECK(read_int(static_cast<char*>(device) + 4096) == 56);
    REQUIRE_ACL(aclrtIpcMemClose(key));
    CHECK_ACL_CODE(aclrtIpcMemClose(key), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtFree(device));
}

TEST_CASE("a key imported in the exporting process is device memory of its own address") {
    Runtime runtime;
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    char key[65] = {};
    REQUIRE_ACL(aclrtIpcMemGetExportKey(device, 1 << 20, key, sizeof key, 0));
    void* imported = nullptr;
    REQUIRE_ACL(aclrtIpcMemImportByKey(&imported, key, 0));
    CHECK(imported != device);
    const int value = 31;
    REQUIRE_ACL(aclrtMemcpy(device, sizeof value, &value, sizeof value, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(read_int(imported) == 31);
    CHECK_ACL_CODE(aclrtMemcpy(imported, (1 << 20) + 1, device, (1 << 20) + 1, ACL_MEMCPY_DEVICE_TO_DEVICE),
                   ACL_ERROR_RT_PARAM_INVALID);
    void* again = nullptr;
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_INVALID_PARAM);  // already imported
    REQUIRE_ACL(aclrtIpcMemClose(key));  // the import
    REQUIRE_ACL(aclrtIpcMemClose(key));  // the export
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&again, key, 0), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtFree(device));
}

TEST_CASE("the IPC key error table") {
    Runtime runtime;
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    char key[65] = {};
    int host = 0;
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(nullptr, 4096, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(device, 4096, nullptr, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(device, 0, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(device, 4096, key, 8, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(device, 4096, key, sizeof key, 7), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(device, 8192, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);  // past the end
    CHECK_ACL_CODE(aclrtIpcMemGetExportKey(&host, 4, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);  // host memory
    void* imported = nullptr;
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(nullptr, "canopy-1-00000000000000000000000000000000", 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&imported, nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&imported, "not a key", 0), ACL_ERROR_INVALID_PARAM);
    // A well-formed key of this process that it never made (a guess) names nothing.
    const std::string guess = "canopy-" + std::to_string(getpid()) + "-0123456789abcdef0123456789abcdef";
    REQUIRE_ACL(aclrtIpcMemGetExportKey(device, 4096, key, sizeof key, 0));
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&imported, guess.c_str(), 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&imported, key, 2), ACL_ERROR_INVALID_PARAM);
    int32_t pid = 0;
    CHECK_ACL_CODE(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemSetImportPid(key, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemClose(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtIpcMemClose(guess.c_str()), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtIpcMemClose(key));
    REQUIRE_ACL(aclrtFree(device));
}

TEST_CASE("the key of an exporter that died gives an error, never a hang") {
    Runtime runtime;
    std::string key;
    {
        Peer peer("ipc-export", "9");
        const std::string line = peer.line();
        REQUIRE(line.rfind("key ", 0) == 0);
        key = line.substr(4);
        CHECK(peer.wait() == 0);
    }
    void* imported = nullptr;
    CHECK_ACL_CODE(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("no process") != std::string::npos);
}
