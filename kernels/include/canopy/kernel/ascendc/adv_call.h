#pragma once
// One call of an advanced-API operator as the vector pipe sees it. On the NPU such a call is a sequence of
// vector instructions over its operands and its temporary buffer; here it is one vector-pipe
// instruction that reads its inputs, writes its outputs and reads and writes its temporary buffer,
// each operand checked like a vector instruction's (a 32-byte aligned UB tensor holding every
// element the call reaches) and reported to the pipe model, then computed with Eigen.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/pipe.h"
#include "canopy/kernel/ascendc/vector_unit.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc {

class AdvancedCall {
public:
    explicit AdvancedCall(const char* api) : api_(api) {}
    AdvancedCall(const AdvancedCall&) = delete;
    AdvancedCall& operator=(const AdvancedCall&) = delete;

    const char* api() const { return api_; }

    // The first `count` elements of `tensor`, read by the call; `source` names where the count
    // comes from (calCount, the shape) for the message when the tensor is too short.
    template <typename T>
    T* in(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count, const char* source = nullptr) {
        return declare(role, Access::read, tensor, count, source);
    }
    // The first `count` elements of `tensor`, written by the call.
    template <typename T>
    T* out(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count, const char* source = nullptr) {
        return declare(role, Access::write, tensor, count, source);
    }
    // The first `count` elements of `tensor`, read and written.
    template <typename T>
    T* inout(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count, const char* source = nullptr) {
        return declare(role, Access::read_write, tensor, count, source);
    }
    // A temporary buffer the call needs `min_bytes` of (CANN's minimum for the shapes at hand, what
    // the host function `tiling` answers): it must hold them; the call uses the whole buffer.
    template <typename T>
    T* tmp(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t min_bytes, const char* tiling = nullptr) {
        const uint64_t held = uint64_t(tensor.GetSize()) * sizeof(T);
        if (held < min_bytes) [[unlikely]] {
            fail_misuse(api_, role, " holds ", held, " bytes; this call needs at least ", min_bytes, " bytes (",
                        tiling ? tiling : "the minimum its tiling function returns", ")");
        }
        if (held == 0) return tensor.landed_address();
        return declare(role, Access::read_write, tensor, tensor.GetSize(), nullptr);
    }
    // No temporary buffer given: CANN's operator takes the UB after the TPipe's buffers (its stack
    // buffer), which must hold `min_bytes`.
    void stack(uint64_t min_bytes, const char* tiling) {
        if (min_bytes == 0) return;
        const LivePipe& live = live_pipe();
        if (!live.registered_by_running_block()) return;  // no TPipe: the kernel manages the UB itself
        const BlockContext& block = current_block();
        const std::size_t used = live.pipe->canopy_used_bytes(AscendC::Hardware::UB);
        const uint64_t left = block.ub_bytes > used ? block.ub_bytes - used : 0;
        if (left < min_bytes) [[unlikely]] {
            fail_misuse(api_, "no sharedTmpBuffer was given and the UB left after the TPipe's buffers holds ", left,
                        " bytes (", used, " of ", block.ub_bytes, " carved), less than the ", min_bytes,
                        " bytes this call needs at least (", tiling, ")");
        }
        add("stack buffer", Access::read_write, block.ub + used, min_bytes);
    }

    // A precondition CANN documents: fails the launch naming the API.
    template <typename... Parts>
    void require(bool condition, const Parts&... parts) const {
        if (!condition) [[unlikely]] fail_misuse(api_, parts...);
    }

    // Reports the call to the pipe model (before it computes).
    void issue() const { pipe_instruction(Pipe::V, api_, ranges_.data(), count_); }

private:
    template <typename T>
    T* declare(const char* role, Access access, const AscendC::LocalTensor<T>& tensor, uint64_t count,
               const char* source) {
        require_vector_tensor(tensor, api_, role);
        if (count > tensor.GetSize()) [[unlikely]] {
            fail_misuse(api_, role, " needs ", count, " elements", source ? " (" : "", source ? source : "",
                        source ? ")" : "", " but its ", AscendC::PositionName(tensor.position()), " LocalTensor holds ",
                        tensor.GetSize());
        }
        add(role, access, reinterpret_cast<const std::byte*>(tensor.landed_address()), count * sizeof(T));
        return tensor.landed_address();
    }

    void add(const char* role, Access access, const std::byte* first, uint64_t bytes) {
        if (bytes == 0) return;
        if (count_ == kMaxOperands) [[unlikely]] fail_misuse(api_, "more than ", kMaxOperands, " operands");
        ranges_[count_++] = ub_range(api_, role, access, first, bytes);
    }

    static constexpr std::size_t kMaxOperands = 12;
    const char* api_;
    std::array<Operand, kMaxOperands> ranges_{};
    std::size_t count_ = 0;
};

inline constexpr uint32_t align_up(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace canopy::kernel::ascendc
