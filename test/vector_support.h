#pragma once
// Shared by the vector-unit tests: device buffers of any element type, and the kernel-side steps
// every test kernel takes (GM into a UB buffer, UB back to GM), synchronized as on the NPU.
#include <cstdint>
#include <cstring>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

namespace canopy_test {

// Device memory holding `host`'s elements.
template <typename T>
class DeviceArray {
public:
    explicit DeviceArray(std::vector<T> host) : host_(std::move(host)) {
        REQUIRE_ACL(aclrtMalloc(&device_, bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host_.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ~DeviceArray() { aclrtFree(device_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    void* get() const { return device_; }
    std::size_t bytes() const { return host_.size() * sizeof(T); }
    std::vector<T> read() {
        REQUIRE_ACL(aclrtMemcpy(host_.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host_;
    }

private:
    std::vector<T> host_;
    void* device_ = nullptr;
};

// The launch succeeds; the stream's synchronize returns `code` with every fragment in the message.
inline void expect_launch_fault(aclrtStream stream, uint32_t launch_rc, int code,
                                std::initializer_list<const char*> fragments) {
    REQUIRE(launch_rc == 0u);
    CHECK(aclrtSynchronizeStream(stream) == code);
    const std::string message = recent_error();
    MESSAGE(message);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
}

}  // namespace canopy_test

// `count` elements of GM at `gm` into `local`, ready for the vector unit.
template <typename T>
inline void load_tile(const AscendC::LocalTensor<T>& local, GM_ADDR gm, uint32_t count) {
    AscendC::GlobalTensor<T> global;
    global.SetGlobalBuffer((__gm__ T*)gm, count);
    AscendC::DataCopy(local, global, count);
    AscendC::PipeBarrier<PIPE_ALL>();
}

// `count` elements of `local` out to GM at `gm`, after the vector unit is done with them.
template <typename T>
inline void store_tile(GM_ADDR gm, const AscendC::LocalTensor<T>& local, uint32_t count) {
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<T> global;
    global.SetGlobalBuffer((__gm__ T*)gm, count);
    AscendC::DataCopy(global, local, count);
    AscendC::PipeBarrier<PIPE_ALL>();
}
