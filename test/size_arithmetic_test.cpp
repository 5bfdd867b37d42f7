// Checked size arithmetic and stale pointers (issue 12): sizes, pitches and offsets that would wrap
// around, arguments placed in an allocation's padding and device pointers already freed are refused
// with a code and a message naming the call and the argument, nothing is written outside the
// allocations involved, and work enqueued before the failing call still completes.
#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support.h"

using namespace canopy_test;

extern "C" void fill_from_placeholders(uint8_t* out, int32_t* count, int32_t* value);

namespace {

constexpr std::size_t kHuge = std::size_t{1} << 63;  // (rows - 1) * kHuge wraps to 0 for odd rows
constexpr unsigned char kGuard = 0xA5;

// A device allocation with guard allocations on both sides (the device heap places consecutive
// allocations next to each other), all filled with a known byte; intact() tells whether any of
// them changed.
struct Guarded {
    explicit Guarded(std::size_t bytes) : size(bytes) {
        for (void** p : {&before, &target, &after})
            REQUIRE_ACL(aclrtMalloc(p, p == &target ? size : kGuardBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemset(before, kGuardBytes, kGuard, kGuardBytes));
        REQUIRE_ACL(aclrtMemset(target, size, kGuard, size));
        REQUIRE_ACL(aclrtMemset(after, kGuardBytes, kGuard, kGuardBytes));
    }
    ~Guarded() {
        aclrtFree(before);
        aclrtFree(target);
        aclrtFree(after);
    }
    bool intact() const {
        for (auto [p, n] : {std::pair{before, kGuardBytes}, std::pair{target, size}, std::pair{after, kGuardBytes}}) {
            std::vector<unsigned char> host(n);
            if (aclrtMemcpy(host.data(), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return false;
            for (unsigned char byte : host)
                if (byte != kGuard) return false;
        }
        return true;
    }
    static constexpr std::size_t kGuardBytes = 4096;
    std::size_t size;
    void* before = nullptr;
    void* target = nullptr;
    void* after = nullptr;
};

// Page-locked host memory (copies from it are stream operations, not synchronous).
struct Pinned {
    explicit Pinned(std::size_t bytes) : size(bytes) {
        REQUIRE_ACL(aclrtMallocHost(&pointer, bytes));
        std::memset(pointer, 0x11, bytes);
    }
    ~Pinned() { aclrtFreeHost(pointer); }
    std::size_t size;
    void* pointer = nullptr;
};

// Work held behind a gate, enqueued before the failing call: a memset of `marker` to 0x5A.
struct EarlierWork {
    EarlierWork(aclrtStream stream, void* marker, std::size_t bytes) : stream(stream), marker(marker), bytes(bytes) {
        REQUIRE_ACL(gate.hold(stream));
        REQUIRE_ACL(aclrtMemsetAsync(marker, bytes, 0x5A, bytes, stream));
    }
    // Opens the gate; the earlier work must complete and the stream report no failure.
    void check_completes() {
        gate.open();
        CHECK_ACL(aclrtSynchronizeStream(stream));
        std::vector<unsigned char> host(bytes);
        CHECK_ACL(aclrtMemcpy(host.data(), bytes, marker, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        for (unsigned char byte : host) REQUIRE(byte == 0x5A);
    }
    Gate gate;
    aclrtStream stream;
    void* marker;
    std::size_t bytes;
};

bool message_names(const char* api, const char* argument) {
    const std::string message = recent_error();
    return message.find(api) != std::string::npos && message.find(argument) != std::string::npos;
}

}  // namespace

TEST_CASE("aclrtMemcpy2d refuses a pitch whose extent wraps around") {
    Runtime runtime;
    Guarded dst(256);
    std::vector<unsigned char> src(4096, 0x77);
    // (3 - 1) * 2^63 + 16 wraps to 16, which fits the 256 bytes.
    CHECK_ACL_CODE(aclrtMemcpy2d(dst.target, kHuge, src.data(), 32, 16, 3, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy2d", "dpitch"));
    CHECK(dst.intact());

    Guarded src_device(256);
    std::vector<unsigned char> host(4096, 0);
    CHECK_ACL_CODE(aclrtMemcpy2d(host.data(), 32, src_device.target, kHuge, 16, 3, ACL_MEMCPY_DEVICE_TO_HOST),
                   ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy2d", "spitch"));
    for (unsigned char byte : host) REQUIRE(byte == 0);

    // Not wrapping but past the end: still refused, as before.
    CHECK_ACL_CODE(aclrtMemcpy2d(dst.target, 128, src.data(), 32, 16, 3, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(dst.intact());
    // A pitch that fits still copies.
    CHECK_ACL(aclrtMemcpy2d(dst.target, 64, src.data(), 32, 16, 3, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_CASE("aclrtMemcpy2dAsync refuses a wrapping pitch and leaves earlier work intact") {
    Runtime runtime;
    Stream stream;
    Guarded dst(256);
    Guarded marker(64);
    Pinned src(4096);
    EarlierWork earlier(stream, marker.target, marker.size);
    CHECK_ACL_CODE(aclrtMemcpy2dAsync(dst.target, kHuge, src.pointer, 32, 16, 3, ACL_MEMCPY_HOST_TO_DEVICE, stream),
                   ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy2dAsync", "dpitch"));
    Pinned host(4096);
    CHECK_ACL_CODE(aclrtMemcpy2dAsync(host.pointer, 32, dst.target, kHuge + 64, 16, 3, ACL_MEMCPY_DEVICE_TO_HOST, stream),
                   ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy2dAsync", "spitch"));
    // A height that makes the product itself overflow.
    CHECK_ACL_CODE(aclrtMemcpy2dAsync(dst.target, 1024, src.pointer, 32, 16, SIZE_MAX, ACL_MEMCPY_HOST_TO_DEVICE, stream),
                   ACL_ERROR_INVALID_PARAM);
    earlier.check_completes();
    CHECK(dst.intact());
    for (std::size_t i = 0; i < host.size; ++i) REQUIRE(static_cast<unsigned char*>(host.pointer)[i] == 0x11);
}

TEST_CASE("1D copies and memsets with wrapping counts or pointers in padding are refused") {
    Runtime runtime;
    Stream stream;
    Guarded dst(100);  // 100 bytes requested: the allocation's padding follows them
    Guarded marker(64);
    std::vector<unsigned char> src(256, 0x33);
    EarlierWork earlier(stream, marker.target, marker.size);
    void* in_padding = static_cast<unsigned char*>(dst.target) + 110;
    CHECK_ACL_CODE(aclrtMemsetAsync(in_padding, 8, 0, 8, stream), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(message_names("aclrtMemsetAsync", "devPtr"));
    CHECK_ACL_CODE(aclrtMemset(in_padding, 1, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ACL_CODE(aclrtMemcpy(in_padding, 8, src.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(message_names("aclrtMemcpy", "dst"));
    // A count that wraps the source's address range.
    CHECK_ACL_CODE(aclrtMemcpy(dst.target, SIZE_MAX, src.data(), SIZE_MAX - 8, ACL_MEMCPY_HOST_TO_DEVICE),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpyAsync(dst.target, SIZE_MAX, src.data(), SIZE_MAX, ACL_MEMCPY_DEFAULT, stream),
                   ACL_ERROR_INVALID_PARAM);
    earlier.check_completes();
    CHECK(dst.intact());
}

TEST_CASE("aclrtKernelArgsAppend refuses a size that wraps or exceeds the list") {
    Runtime runtime;
    aclrtFuncHandle function = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&fill_from_placeholders), &function));
    aclrtArgsHandle args = nullptr;
    REQUIRE_ACL(aclrtKernelArgsInit(function, &args));
    aclrtParamHandle param = nullptr;
    uint64_t value = 0;
    REQUIRE_ACL(aclrtKernelArgsAppend(args, &value, 3, &param));  // the next parameter goes at offset 8
    // 8 + (SIZE_MAX - 3) wraps to 4: it used to resize the list to 4 bytes and copy SIZE_MAX - 3 into it.
    CHECK_ACL_CODE(aclrtKernelArgsAppend(args, &value, SIZE_MAX - 3, &param), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtKernelArgsAppend", "paramSize"));
    CHECK_ACL_CODE(aclrtKernelArgsAppend(args, &value, SIZE_MAX, &param), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtKernelArgsAppend(args, &value, std::size_t{1} << 40, &param), ACL_ERROR_INVALID_PARAM);
    aclrtParamHandle placeholder = nullptr;
    REQUIRE_ACL(aclrtKernelArgsAppendPlaceHolder(args, &placeholder));
    void* buffer = nullptr;
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(args, placeholder, SIZE_MAX, &buffer), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtKernelArgsGetPlaceHolderBuffer", "dataSize"));
    CHECK(buffer == nullptr);
    // The list is still usable.
    REQUIRE_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, placeholder, 4, &buffer));
}

TEST_CASE("a launch whose argsData lies in an allocation's padding is refused") {
    Runtime runtime;
    Stream stream;
    Guarded out(64 * sizeof(int32_t));
    Guarded marker(64);
    aclrtFuncHandle function = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&fill_from_placeholders), &function));
    // Three pointer parameters: 24 bytes of arguments in a 24-byte allocation, whose padding follows.
    void* blob = nullptr;
    REQUIRE_ACL(aclrtMalloc(&blob, 24, ACL_MEM_MALLOC_HUGE_FIRST));
    // Pointers to the output filled into the padding bytes would be garbage the kernel writes through.
    std::vector<void*> pointers(3, out.target);
    EarlierWork earlier(stream, marker.target, marker.size);
    void* in_padding = static_cast<unsigned char*>(blob) + 32;
    CHECK_ACL_CODE(aclrtLaunchKernel(function, 1, in_padding, 24, stream), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(message_names("aclrtLaunchKernel", "argsData"));
    CHECK_ACL_CODE(aclrtLaunchKernel(function, 1, static_cast<unsigned char*>(blob) + 8, 24, stream), ACL_ERROR_RT_PARAM_INVALID);
    // Page-locked arguments are bounded by their allocation too.
    Pinned pinned(24);
    CHECK_ACL_CODE(aclrtLaunchKernel(function, 1, static_cast<unsigned char*>(pinned.pointer) + 40, 24, stream),
                   ACL_ERROR_RT_PARAM_INVALID);
    earlier.check_completes();
    CHECK(out.intact());
    // Freed arguments are not host memory either.
    REQUIRE_ACL(aclrtFree(blob));
    CHECK_ACL_CODE(aclrtLaunchKernel(function, 1, blob, 24, stream), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtLaunchKernel", "argsData"));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.intact());
}

TEST_CASE("a freed device pointer is not taken for host memory") {
    Runtime runtime;
    Stream stream;
    Guarded marker(64);
    void* freed = nullptr;
    REQUIRE_ACL(aclrtMalloc(&freed, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtFree(freed));
    std::vector<unsigned char> host(256, 0x44);

    CHECK_ACL_CODE(aclrtMemcpy(host.data(), 256, freed, 256, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy", "src"));
    CHECK(recent_error().find("freed") != std::string::npos);
    CHECK_ACL_CODE(aclrtMemcpy(freed, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy", "dst"));
    CHECK_ACL_CODE(aclrtMemcpy(host.data(), 256, freed, 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemcpy2d(freed, 16, host.data(), 16, 16, 4, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpy2d", "dst"));

    EarlierWork earlier(stream, marker.target, marker.size);
    CHECK_ACL_CODE(aclrtMemcpyAsync(host.data(), 256, freed, 256, ACL_MEMCPY_DEFAULT, stream), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemcpyAsync", "src"));
    CHECK_ACL_CODE(aclrtMemcpyAsync(freed, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtMemsetAsync(freed, 256, 0, 256, stream), ACL_ERROR_INVALID_PARAM);
    CHECK(message_names("aclrtMemsetAsync", "devPtr"));
    earlier.check_completes();
    for (unsigned char byte : host) REQUIRE(byte == 0x44);

    // Host memory, live device memory and page-locked memory are still told apart as before.
    std::vector<unsigned char> other(256, 0);
    CHECK_ACL(aclrtMemcpy(other.data(), 256, host.data(), 256, ACL_MEMCPY_HOST_TO_HOST));
    CHECK(other == host);
    CHECK_ACL(aclrtMemcpy(other.data(), 256, marker.target, 64, ACL_MEMCPY_DEFAULT));
}

TEST_CASE("aclInit on a directory returns a file error") {
    char directory[] = "/tmp/canopy-config-dir-XXXXXX";
    REQUIRE(mkdtemp(directory) != nullptr);
    CHECK_ACL_CODE(aclInit(directory), ACL_ERROR_INVALID_FILE);
    CHECK(message_names("aclInit", "configPath"));
    CHECK(recent_error().find("directory") != std::string::npos);
    // Nothing was started: a later aclInit works.
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclFinalize());
    rmdir(directory);
}
