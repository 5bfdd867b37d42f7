// A producer/consumer pipeline over two streams. The producer copies each chunk of x to the device
// and computes y = x * x (aclnnMul); the consumer computes z = y - x (aclnnAdd with alpha -1) and
// copies z back. The chunks go through two device slots, ordered by events only, never by the host:
// the consumer waits for the event the producer recorded after filling the slot, and the producer
// refills a slot only after the event the consumer recorded once done with it. So the producer
// works on chunk c + 1 while the consumer works on chunk c. The host checks every chunk at the end.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

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

constexpr int chunks = 16;
constexpr int64_t chunk_length = 1 << 16;
constexpr std::size_t chunk_bytes = chunk_length * sizeof(float);

aclTensor* chunk_tensor(void* device) {
    const int64_t shape[] = {chunk_length};
    const int64_t strides[] = {1};
    aclTensor* tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device);
    if (tensor == nullptr) fail("aclCreateTensor");
    return tensor;
}

// An operator planned once and run on every chunk through the same slot: a repeatable executor
// keeps its plan and workspace instead of being released by its first run.
struct Planned {
    aclOpExecutor* executor = nullptr;
    void* workspace = nullptr;
    uint64_t workspace_size = 0;

    void keep() {
        CHECK(aclSetAclOpExecutorRepeatable(executor));
        if (workspace_size != 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    void release() {
        CHECK(aclDestroyAclOpExecutor(executor));
        if (workspace != nullptr) CHECK(aclrtFree(workspace));
    }
};

// The device memory of one chunk in flight, the operators planned over it and the two events.
struct Slot {
    void *x_device, *y_device, *z_device;
    aclTensor *x, *y, *z;
    Planned square, subtract;
    aclrtEvent produced, consumed;

    explicit Slot(const aclScalar* minus_one) {
        CHECK(aclrtMalloc(&x_device, chunk_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMalloc(&y_device, chunk_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMalloc(&z_device, chunk_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        x = chunk_tensor(x_device);
        y = chunk_tensor(y_device);
        z = chunk_tensor(z_device);
        CHECK(aclnnMulGetWorkspaceSize(x, x, y, &square.workspace_size, &square.executor));
        square.keep();
        CHECK(aclnnAddGetWorkspaceSize(y, x, minus_one, z, &subtract.workspace_size, &subtract.executor));
        subtract.keep();
        CHECK(aclrtCreateEvent(&produced));
        CHECK(aclrtCreateEvent(&consumed));
    }
    ~Slot() {
        CHECK(aclrtDestroyEvent(produced));
        CHECK(aclrtDestroyEvent(consumed));
        square.release();
        subtract.release();
        for (aclTensor* tensor : {x, y, z}) CHECK(aclDestroyTensor(tensor));
        for (void* device : {x_device, y_device, z_device}) CHECK(aclrtFree(device));
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
};

}  // namespace

int main() {
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream producer, consumer;
    CHECK(aclrtCreateStream(&producer));
    CHECK(aclrtCreateStream(&consumer));

    // Page-locked, so that the copies are asynchronous.
    float *x_host, *z_host;
    CHECK(aclrtMallocHost(reinterpret_cast<void**>(&x_host), chunks * chunk_bytes));
    CHECK(aclrtMallocHost(reinterpret_cast<void**>(&z_host), chunks * chunk_bytes));
    for (int64_t i = 0; i < chunks * chunk_length; ++i) x_host[i] = static_cast<float>(i % 201) - 100.0f;

    float minus_one_value = -1.0f;
    aclScalar* minus_one = aclCreateScalar(&minus_one_value, ACL_FLOAT);
    if (minus_one == nullptr) fail("aclCreateScalar");
    {
        Slot slots[2] = {Slot(minus_one), Slot(minus_one)};
        for (int c = 0; c < chunks; ++c) {
            Slot& slot = slots[c % 2];
            float* x_chunk = x_host + c * chunk_length;
            float* z_chunk = z_host + c * chunk_length;
            // A wait refers to the event's latest record: the consumer's, for chunk c - 2.
            if (c >= 2) CHECK(aclrtStreamWaitEvent(producer, slot.consumed));
            CHECK(aclrtMemcpyAsync(slot.x_device, chunk_bytes, x_chunk, chunk_bytes, ACL_MEMCPY_HOST_TO_DEVICE, producer));
            CHECK(aclnnMul(slot.square.workspace, slot.square.workspace_size, slot.square.executor, producer));
            CHECK(aclrtRecordEvent(slot.produced, producer));

            CHECK(aclrtStreamWaitEvent(consumer, slot.produced));
            CHECK(aclnnAdd(slot.subtract.workspace, slot.subtract.workspace_size, slot.subtract.executor, consumer));
            CHECK(aclrtMemcpyAsync(z_chunk, chunk_bytes, slot.z_device, chunk_bytes, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
            CHECK(aclrtRecordEvent(slot.consumed, consumer));
        }
        // The consumer's last copy comes after all the producer's work, through the events.
        CHECK(aclrtSynchronizeStream(consumer));
    }

    int64_t wrong = 0;
    for (int64_t i = 0; i < chunks * chunk_length; ++i) {
        if (z_host[i] != x_host[i] * x_host[i] - x_host[i]) ++wrong;
    }

    CHECK(aclDestroyScalar(minus_one));
    CHECK(aclrtFreeHost(x_host));
    CHECK(aclrtFreeHost(z_host));
    CHECK(aclrtDestroyStream(producer));
    CHECK(aclrtDestroyStream(consumer));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    if (wrong != 0) {
        std::fprintf(stderr, "two_streams: %lld of %lld elements wrong\n", static_cast<long long>(wrong),
                     static_cast<long long>(chunks * chunk_length));
        return 1;
    }
    std::printf("two_streams: %d chunks through 2 slots, z = x * x - x correct on all %lld elements\n", chunks,
                static_cast<long long>(chunks * chunk_length));
    return 0;
}
