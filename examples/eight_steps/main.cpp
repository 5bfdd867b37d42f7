// The eight steps of a CANN host program: initialize; a device and a stream; device memory filled
// from the host; the computation, here aclnnAdd (out = x + alpha * y); synchronize; the result back
// to the host; release; finalize. Exits non-zero when a call fails or the result is wrong.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

// Prints what failed with the runtime's message and exits.
[[noreturn]] void fail(const char* what) {
    const char* message = aclGetRecentErrMsg();
    std::fprintf(stderr, "%s failed: %s\n", what, message ? message : "(no message)");
    std::exit(1);
}

// aclError and aclnnStatus alike are 0 on success.
#define CHECK(call)                      \
    do {                                 \
        if ((call) != 0) fail(#call);    \
    } while (0)

constexpr int64_t count = 4096;
constexpr std::size_t bytes = count * sizeof(float);

// A contiguous one-dimensional float tensor over device memory.
aclTensor* vector_tensor(void* device) {
    const int64_t shape[] = {count};
    const int64_t strides[] = {1};
    aclTensor* tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device);
    if (tensor == nullptr) fail("aclCreateTensor");
    return tensor;
}

}  // namespace

int main() {
    // 1. Initialize.
    CHECK(aclInit(nullptr));

    // 2. Runtime resources: the device and a stream.
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    // 3. Device memory, filled asynchronously in stream order. Page-locked host memory keeps the
    //    copies asynchronous.
    float *x_host, *y_host, *out_host;
    CHECK(aclrtMallocHost(reinterpret_cast<void**>(&x_host), bytes));
    CHECK(aclrtMallocHost(reinterpret_cast<void**>(&y_host), bytes));
    CHECK(aclrtMallocHost(reinterpret_cast<void**>(&out_host), bytes));
    for (int64_t i = 0; i < count; ++i) {
        x_host[i] = static_cast<float>(i % 100) * 0.25f;
        y_host[i] = static_cast<float>(i % 7) - 3.0f;
    }
    void *x_device, *y_device, *out_device;
    CHECK(aclrtMalloc(&x_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&y_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&out_device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpyAsync(x_device, bytes, x_host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK(aclrtMemcpyAsync(y_device, bytes, y_host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));

    // 4. The computation, in aclnn's two phases: the first checks the arguments, plans the work and
    //    sizes its device workspace; the second enqueues it on the stream and returns at once.
    aclTensor* x = vector_tensor(x_device);
    aclTensor* y = vector_tensor(y_device);
    aclTensor* out = vector_tensor(out_device);
    float alpha_value = 2.0f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    if (alpha == nullptr) fail("aclCreateScalar");
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(x, y, alpha, out, &workspace_size, &executor));
    void* workspace = nullptr;
    if (workspace_size != 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclnnAdd(workspace, workspace_size, executor, stream));

    // 5. Wait for the stream: the copies and the addition have run.
    CHECK(aclrtSynchronizeStream(stream));

    // 6. The result back to the host.
    CHECK(aclrtMemcpy(out_host, bytes, out_device, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    int64_t wrong = 0;
    for (int64_t i = 0; i < count; ++i) {
        if (out_host[i] != x_host[i] + alpha_value * y_host[i]) ++wrong;
    }

    // 7. Release the operator's objects, the memory, the stream and the device.
    CHECK(aclDestroyTensor(x));
    CHECK(aclDestroyTensor(y));
    CHECK(aclDestroyTensor(out));
    CHECK(aclDestroyScalar(alpha));
    if (workspace != nullptr) CHECK(aclrtFree(workspace));
    CHECK(aclrtFree(x_device));
    CHECK(aclrtFree(y_device));
    CHECK(aclrtFree(out_device));
    CHECK(aclrtFreeHost(x_host));
    CHECK(aclrtFreeHost(y_host));
    CHECK(aclrtFreeHost(out_host));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));

    // 8. Finalize.
    CHECK(aclFinalize());

    if (wrong != 0) {
        std::fprintf(stderr, "eight_steps: %lld of %lld elements wrong\n", static_cast<long long>(wrong),
                     static_cast<long long>(count));
        return 1;
    }
    std::printf("eight_steps: out = x + 2 * y correct on all %lld elements\n", static_cast<long long>(count));
    return 0;
}
