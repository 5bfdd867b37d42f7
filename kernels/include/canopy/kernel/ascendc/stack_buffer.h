#pragma once
// PopStackBuffer (CANN basic_api/kernel_tpipe.h): the part of a position's memory the block's TPipe
// has not carved, as one tensor, for the advanced APIs' temporary space. Nothing is reserved: a
// later InitBuffer may carve the same bytes, as on the NPU.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/pipe.h"

namespace AscendC {

template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popBuffer) {
    using namespace canopy::kernel::ascendc;
    TPipe* pipe = GetTPipePtr();
    if (pipe == nullptr) [[unlikely]] fail_misuse("PopStackBuffer", "no TPipe is alive in this block");
    const Hardware hardware = GetPhyType(pos);
    const LocalMemory memory = local_memory(hardware);
    if (memory.base == nullptr) [[unlikely]] {
        fail_misuse("PopStackBuffer", "position ", PositionName(pos), " has no memory in this block");
    }
    const std::size_t used = pipe->canopy_used_bytes(hardware);
    const std::size_t start = (used + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const std::size_t free_bytes = start < memory.bytes ? memory.bytes - start : 0;
    popBuffer = LocalTensor<T>(reinterpret_cast<T*>(memory.base + start), uint32_t(elements_in<T>(free_bytes)), pos,
                               nullptr);
    return true;
}

}  // namespace AscendC
