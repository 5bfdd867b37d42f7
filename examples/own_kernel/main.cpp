// A host program launching its own kernel (axpy_kernel.cpp) with <<<numBlocks, dynUBufSize,
// stream>>>, then checking z = alpha * x + y on the host. Exits non-zero on a failure or a mismatch.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "axpy_kernel.h"

namespace {

// Prints what failed with the runtime's message and exits.
[[noreturn]] void fail(const char* what) {
    const char* message = aclGetRecentErrMsg();
    std::fprintf(stderr, "%s failed: %s\n", what, message ? message : "(no message)");
    std::exit(1);
}

#define CHECK(call)                      \
    do {                                 \
        if ((call) != 0) fail(#call);    \
    } while (0)

constexpr uint32_t blocks = 8;
constexpr uint32_t length = blocks * 4 * axpy_tile_length;
constexpr std::size_t bytes = length * sizeof(float);

}  // namespace

int main() {
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    std::vector<float> x(length), y(length), z(length);
    for (uint32_t i = 0; i < length; ++i) {
        x[i] = static_cast<float>(i % 31) - 15.0f;
        y[i] = static_cast<float>(i % 5) * 0.5f;
    }
    void *x_device, *y_device, *z_device;
    CHECK(aclrtMalloc(&x_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&z_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x_device, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y_device, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    // Enqueued on the stream: a block that faults (say, overflows its Unified Buffer) is reported by
    // the synchronize, with aclGetRecentErrMsg naming the kernel, the block and the API.
    const float alpha = 3.0f;
    // A launch is a statement, as in CANN (the kernel returns void): whether it was enqueued is the
    // thread's last error.
    axpy<<<blocks, nullptr, stream>>>(static_cast<GM_ADDR>(x_device), static_cast<GM_ADDR>(y_device),
                                      static_cast<GM_ADDR>(z_device), alpha, length);
    CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(z.data(), bytes, z_device, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    uint32_t wrong = 0;
    for (uint32_t i = 0; i < length; ++i) {
        if (z[i] != alpha * x[i] + y[i]) ++wrong;
    }

    CHECK(aclrtFree(x_device));
    CHECK(aclrtFree(y_device));
    CHECK(aclrtFree(z_device));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    if (wrong != 0) {
        std::fprintf(stderr, "own_kernel: %u of %u elements wrong\n", wrong, length);
        return 1;
    }
    std::printf("own_kernel: axpy on %u blocks correct on all %u elements\n", blocks, length);
    return 0;
}
