// Kernels that raise a fault on purpose with inline assembly, as the official samples' error_OP.cpp.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void trapping_kernel() { asm("trap"); }

extern "C" __global__ __aicore__ void trapping_block(GM_ADDR ran, uint32_t failing_block)
{
    reinterpret_cast<uint32_t*>(ran)[AscendC::GetBlockIdx()] = 1;
    if (AscendC::GetBlockIdx() == failing_block) asm("trap;");
}

extern "C" __global__ __aicore__ void unknown_instruction() { asm("pipe_barrier PIPE_ALL"); }

void launch_trapping_kernel(uint32_t blocks, void* stream) { trapping_kernel<<<blocks, nullptr, stream>>>(); }
void launch_trapping_block(uint32_t blocks, void* stream, uint8_t* ran, uint32_t failing_block)
{
    trapping_block<<<blocks, nullptr, stream>>>(ran, failing_block);
}
void launch_unknown_instruction(void* stream) { unknown_instruction<<<1, nullptr, stream>>>(); }
