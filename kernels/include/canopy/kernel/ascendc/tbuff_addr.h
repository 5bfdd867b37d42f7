#pragma once
// TBuffAddr: where a LocalTensor lives, as CANN spells it (kernel_tensor_base.h). A LocalTensor
// carries one as its public `address_`, and LocalTensor::SetAddr rebinds a tensor to another (of any
// element type): catlass points typed tensors at the bytes of others this way.
//
// The fields mean what they mean in CANN's CPU debug mode:
//   dataLen      the tensor's length in bytes, from its start to its end;
//   bufferAddr   its start as a byte offset into its memory (the address the NPU's instructions take);
//   bufferHandle the TPipe buffer it was allocated from (Canopy: its BufferRecord), or null;
//   logicPos     its TPosition;
//   absAddr      its start in the host memory that models the local memory.
// A tensor keeps its address_ current (operator[] and SetSize included); SetAddr checks an address
// against the memory and the buffer before the tensor takes it. Writing the fields of a tensor's
// address_ directly changes nothing Canopy checks: rebind with SetAddr.
#include <cstdint>

namespace AscendC {

// A buffer handle as custom TBufPools (EXTERN_IMPL_BUFPOOL) pass them: here a BufferRecord's
// address (pipe.h declares the same alias).
using TBufHandle = uint8_t*;

struct TBuffAddr {
    uint32_t dataLen = 0;
    uint32_t bufferAddr = 0;
    TBufHandle bufferHandle = nullptr;
    uint8_t logicPos = 0;
    uint8_t* absAddr = nullptr;
};

}  // namespace AscendC
