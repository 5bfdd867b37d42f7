#pragma once
// One call of an advanced-API operator (normalization, quantization, reduce, sort, index, filter,
// select, pad, transpose) as the vector pipe sees it. On the NPU such a call is a sequence of
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
#include "canopy/kernel/ascendc/vector_unit.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc {

class AdvancedCall {
public:
    explicit AdvancedCall(const char* api) : api_(api) {}
    AdvancedCall(const AdvancedCall&) = delete;
    AdvancedCall& operator=(const AdvancedCall&) = delete;

    const char* api() const { return api_; }

    // The first `count` elements of `tensor`, read by the call.
    template <typename T>
    T* in(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count) {
        return declare(role, Access::read, tensor, count);
    }
    // The first `count` elements of `tensor`, written by the call.
    template <typename T>
    T* out(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count) {
        return declare(role, Access::write, tensor, count);
    }
    // The first `count` elements of `tensor`, read and written.
    template <typename T>
    T* inout(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t count) {
        return declare(role, Access::read_write, tensor, count);
    }
    // A temporary buffer the call needs `min_bytes` of (CANN's minimum for the shapes at hand): it
    // must hold them; the call uses the whole buffer as scratch.
    template <typename T>
    void tmp(const char* role, const AscendC::LocalTensor<T>& tensor, uint64_t min_bytes) {
        const uint64_t held = uint64_t(tensor.GetSize()) * sizeof(T);
        if (held < min_bytes) [[unlikely]] {
            fail_misuse(api_, role, " holds ", held, " bytes; this call needs at least ", min_bytes,
                        " (the minimum its tiling function returns)");
        }
        if (held == 0) return;
        declare(role, Access::read_write, tensor, tensor.GetSize());
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
    T* declare(const char* role, Access access, const AscendC::LocalTensor<T>& tensor, uint64_t count) {
        require_vector_tensor(tensor, api_, role);
        if (count > tensor.GetSize()) [[unlikely]] {
            fail_misuse(api_, role, " needs ", count, " elements but its ", AscendC::PositionName(tensor.position()),
                        " LocalTensor holds ", tensor.GetSize());
        }
        if (count_ == kMaxOperands) [[unlikely]] fail_misuse(api_, "more than ", kMaxOperands, " operands");
        if (count > 0) {
            ranges_[count_++] = ub_range(api_, role, access, reinterpret_cast<const std::byte*>(tensor.GetPhyAddr()),
                                         count * sizeof(T));
        }
        return tensor.GetPhyAddr();
    }

    static constexpr std::size_t kMaxOperands = 12;
    const char* api_;
    std::array<Operand, kMaxOperands> ranges_{};
    std::size_t count_ = 0;
};

inline constexpr uint32_t align_up(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }

}  // namespace canopy::kernel::ascendc
