// The main job: a host program written as for CANN, following the runtime model's eight steps
// (init; device and streams; device memory and host-to-device copies; launch; synchronize;
// device-to-host copies; release; finalize), over several streams at once, verifying the result.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "reference_ops.h"  // add_custom: the double-buffered Ascend C add operator

#define ACL_CHECK(call)                                                                             \
    do {                                                                                            \
        const aclError error_ = (call);                                                             \
        if (error_ != ACL_SUCCESS) {                                                                \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, aclGetRecentErrMsg()); \
            std::exit(1);                                                                           \
        }                                                                                           \
    } while (0)

namespace {

constexpr int stream_count = 4;
constexpr std::size_t elements = std::size_t{1} << 20;
constexpr std::size_t bytes = elements * sizeof(float);
constexpr int rounds = 8;

constexpr uint32_t blocks = 8;
constexpr uint32_t tiles_per_block = 16;

}  // namespace

int main() {
    // 1. Initialize.
    ACL_CHECK(aclInit(nullptr));
    // 2. Runtime resources: the device and the streams.
    ACL_CHECK(aclrtSetDevice(0));
    aclrtStream streams[stream_count];
    for (auto& stream : streams) ACL_CHECK(aclrtCreateStream(&stream));

    // 3. Device memory, filled from page-locked host memory asynchronously.
    float* host_in[stream_count];
    float* host_out[stream_count];
    void* device_x[stream_count];
    void* device_y[stream_count];
    void* device_z[stream_count];
    for (int s = 0; s < stream_count; ++s) {
        ACL_CHECK(aclrtMallocHost(reinterpret_cast<void**>(&host_in[s]), bytes));
        ACL_CHECK(aclrtMallocHost(reinterpret_cast<void**>(&host_out[s]), bytes));
        ACL_CHECK(aclrtMalloc(&device_x[s], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&device_y[s], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        ACL_CHECK(aclrtMalloc(&device_z[s], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        for (std::size_t i = 0; i < elements; ++i) host_in[s][i] = static_cast<float>(i % 1000) * 0.5f + s;
    }

    const auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < rounds; ++round) {
        for (int s = 0; s < stream_count; ++s) {
            ACL_CHECK(aclrtMemcpyAsync(device_x[s], bytes, host_in[s], bytes, ACL_MEMCPY_HOST_TO_DEVICE, streams[s]));
            ACL_CHECK(aclrtMemcpyAsync(device_y[s], bytes, host_in[s], bytes, ACL_MEMCPY_HOST_TO_DEVICE, streams[s]));
            // 4. Launch the kernel (asynchronous).
            ACL_CHECK(static_cast<aclError>(add_custom<<<blocks, nullptr, streams[s]>>>(
                static_cast<uint8_t*>(device_x[s]), static_cast<uint8_t*>(device_y[s]),
                static_cast<uint8_t*>(device_z[s]), AddTiling{static_cast<uint32_t>(elements), tiles_per_block})));
            // 6. Results back to the host, in stream order.
            ACL_CHECK(aclrtMemcpyAsync(host_out[s], bytes, device_z[s], bytes, ACL_MEMCPY_DEVICE_TO_HOST, streams[s]));
        }
        // 5. Wait for the streams.
        for (auto& stream : streams) ACL_CHECK(aclrtSynchronizeStream(stream));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::size_t wrong = 0;
    for (int s = 0; s < stream_count; ++s) {
        for (std::size_t i = 0; i < elements; ++i) {
            const float expected = 2.0f * host_in[s][i];
            if (std::fabs(host_out[s][i] - expected) > 1e-5f * std::fabs(expected)) ++wrong;
        }
    }

    // 7. Release the resources, 8. finalize.
    for (int s = 0; s < stream_count; ++s) {
        ACL_CHECK(aclrtFree(device_x[s]));
        ACL_CHECK(aclrtFree(device_y[s]));
        ACL_CHECK(aclrtFree(device_z[s]));
        ACL_CHECK(aclrtFreeHost(host_in[s]));
        ACL_CHECK(aclrtFreeHost(host_out[s]));
    }
    for (auto& stream : streams) ACL_CHECK(aclrtDestroyStream(stream));
    ACL_CHECK(aclrtResetDevice(0));
    ACL_CHECK(aclFinalize());

    const double moved = static_cast<double>(rounds) * stream_count * 3 * bytes;
    std::printf("pipeline: %d streams x %d rounds of (2 H2D copies, add kernel, D2H copy) on %zu floats: %.1f ms, %.2f GB/s copied\n",
                stream_count, rounds, elements, seconds * 1e3, moved / seconds / 1e9);
    if (wrong != 0) {
        std::printf("FAILED: %zu wrong elements\n", wrong);
        return 1;
    }
    std::printf("result verified: all %zu elements correct\n", elements * stream_count);
    return 0;
}
