#pragma once
// How an Ascend C API reports itself to the pipe model (canopy/kernel/pipes.h): every API that
// reads or writes local memory calls issue() once, before it touches the data, with the pipe it
// runs on and the extent of each local operand:
//
//   issue(Pipe::V, "Add", writes(dst, count * sizeof(T)), reads(src0, count * sizeof(T)),
//         reads(src1, count * sizeof(T)));
//
// An operand's extent runs from its first to its last byte (strided accesses count the gaps).
// Global memory is not tracked. A race raises ACL_ERROR_RT_AICORE_EXCEPTION naming both instructions.
#include <cstdint>

#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc {

using canopy::kernel::Operand;
using canopy::kernel::Pipe;

template <typename T>
inline Operand local_operand(const AscendC::LocalTensor<T>& tensor, uint64_t bytes, bool write) {
    const AscendC::Hardware memory = tensor.memory();
    return Operand{tensor.address(), bytes, local_memory(memory).base, AscendC::HardwareName(memory), write};
}

// `bytes` of `tensor` from its start, read by the instruction.
template <typename T>
inline Operand reads(const AscendC::LocalTensor<T>& tensor, uint64_t bytes) {
    return local_operand(tensor, bytes, false);
}

// `bytes` of `tensor` from its start, written by the instruction.
template <typename T>
inline Operand writes(const AscendC::LocalTensor<T>& tensor, uint64_t bytes) {
    return local_operand(tensor, bytes, true);
}

// An operand whose deferred moves the instruction handles itself (deferred_moves.h).
inline Operand deferred(Operand operand) {
    operand.deferred = true;
    return operand;
}

// An L0C operand of Mmad or Fixpipe with unitFlag on (pipes.h).
inline Operand under_unit_flag(Operand operand, bool on) {
    operand.unit_flag = on;
    return operand;
}

// Reports one instruction of `api` on `pipe`.
template <typename... Operands>
inline void issue(Pipe pipe, const char* api, const Operands&... operands) {
    const Operand list[] = {operands..., Operand{}};
    canopy::kernel::pipe_instruction(pipe, api, list, sizeof...(Operands));
}

// The pipe a pipe_t names, for the APIs that take one (PIPE_ALL and the pipes the A2 lacks have
// none: callers check first).
constexpr Pipe pipe_of(pipe_t pipe) {
    switch (pipe) {
        case PIPE_S: return Pipe::S;
        case PIPE_V: return Pipe::V;
        case PIPE_M: return Pipe::M;
        case PIPE_MTE1: return Pipe::MTE1;
        case PIPE_MTE2: return Pipe::MTE2;
        case PIPE_MTE3: return Pipe::MTE3;
        case PIPE_FIX: return Pipe::FIX;
        default: return Pipe::S;
    }
}

}  // namespace canopy::kernel::ascendc
