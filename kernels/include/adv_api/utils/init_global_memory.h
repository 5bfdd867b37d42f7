#pragma once
// Fill / InitGlobalMemory (CANN adv_api/utils/init_global_memory.h): sets the first `size`
// elements of a GlobalTensor to `value`. On the NPU the vector unit fills a UB tile that MTE3
// copies out, so a later MTE2 read of that memory must wait for MTE3 (the samples' SetFlag /
// WaitFlag<MTE3_MTE2>); here it is an MTE3 instruction writing the checked GM window.
#include <algorithm>
#include <cstdint>

#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    T* data = gmWorkspaceAddr.CheckedSpan(0, size, true, "Fill");
    canopy::kernel::pipe_instruction(canopy::kernel::Pipe::MTE3, "Fill", nullptr, 0);
    std::fill(data, data + size, value);
}

template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    Fill(gmWorkspaceAddr, size, value);
}

}  // namespace AscendC
