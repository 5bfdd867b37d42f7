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
