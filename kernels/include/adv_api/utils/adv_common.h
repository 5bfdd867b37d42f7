#pragma once
// What Canopy's advanced kernel API operators share (math, activation). An advanced API call is,
// on the NPU, a sequence of vector instructions; here it is one vector-pipe instruction for the
// pipe model, whose operands are the UB ranges the call reads and writes (its tensors over the
// elements it computes, and the temporary buffer it works in), computed with Eigen in the vector
// unit's precision (half and bfloat16 in float, rounded once when stored).
//
// The checks are CANN's documented preconditions, made as the basic instructions make theirs: UB
// tensors 32-byte aligned, calCount within every tensor, a sharedTmpBuffer of at least the
// minimum its Get...MaxMinTmpSize function answers; without a sharedTmpBuffer, CANN's operators
// take the UB left after the TPipe's buffers (the stack buffer), which must hold that minimum.
// A violation fails the launch with ACL_ERROR_RT_AICORE_EXCEPTION naming the API and the sizes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/kernel_log.h"
#include "canopy/kernel/ascendc/scalar_minmax.h"
#include "canopy/kernel/ascendc/eigen_map.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/pipe.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/ascendc/vector_unit.h"

namespace canopy::kernel::adv {

using canopy::kernel::ascendc::Access;
using canopy::kernel::ascendc::compute_t;
using canopy::kernel::ascendc::fail_misuse;

// One advanced API call as the pipe model sees it.
class AdvCall {
public:
    explicit AdvCall(const char* api) : api_(api) {}

    const char* api() const { return api_; }

    // `tensor`'s first `count` elements, read and/or written by the call: a 32-byte aligned UB
    // tensor holding them.
    // `what` names where the count comes from (calCount, the shape).
    template <typename T>
    T* operand(const char* role, Access access, const AscendC::LocalTensor<T>& tensor, uint64_t count,
               const char* what = "calCount") {
        canopy::kernel::ascendc::require_vector_tensor(tensor, api_, role);
        if (count > tensor.GetSize()) [[unlikely]] {
            fail_misuse(api_, what, " ", count, " exceeds ", role, " (a ", AscendC::PositionName(tensor.position()),
                        " LocalTensor of ", tensor.GetSize(), " elements)");
        }
        add(role, access, tensor.GetPhyAddr(), count * sizeof(T));
        return tensor.GetPhyAddr();
    }

    // The sharedTmpBuffer: at least `min_bytes` (its tiling function's minimum for this call), 32-byte
    // aligned; the call may use all of it.
    uint8_t* tmp(const AscendC::LocalTensor<uint8_t>& buffer, uint64_t min_bytes, const char* tiling) {
        canopy::kernel::ascendc::require_vector_tensor(buffer, api_, "sharedTmpBuffer");
        const uint64_t held = buffer.GetSize();
        if (held < min_bytes) [[unlikely]] {
            fail_misuse(api_, "sharedTmpBuffer holds ", held, " bytes, less than the ", min_bytes,
                        " bytes this call needs at least (", tiling, ")");
        }
        if (held > 0) add("sharedTmpBuffer", Access::write, buffer.GetPhyAddr(), held);
        return buffer.GetPhyAddr();
    }

    // No sharedTmpBuffer given: CANN's operator takes the UB after the TPipe's buffers, which must
    // hold `min_bytes`.
    void stack(uint64_t min_bytes, const char* tiling) {
        if (min_bytes == 0) return;
        const canopy::kernel::ascendc::LivePipe& live = canopy::kernel::ascendc::live_pipe();
        if (!live.registered_by_running_block()) return;  // no TPipe: the kernel manages the UB itself
        const BlockContext& block = current_block();
        const std::size_t used = live.pipe->canopy_used_bytes(AscendC::Hardware::UB);
        const uint64_t left = block.ub_bytes > used ? block.ub_bytes - used : 0;
        if (left < min_bytes) [[unlikely]] {
            fail_misuse(api_, "no sharedTmpBuffer was given and the UB left after the TPipe's buffers holds ", left,
                        " bytes (", used, " of ", block.ub_bytes, " carved), less than the ", min_bytes,
                        " bytes this call needs at least (", tiling, ")");
        }
        add("stack buffer", Access::write, block.ub + used, min_bytes);
    }

    // Reports the call to the pipe model.
    void issue() const { canopy::kernel::pipe_instruction(canopy::kernel::Pipe::V, api_, ranges_, count_); }

private:
    void add(const char* role, Access access, const void* first, uint64_t bytes) {
        if (bytes == 0) return;
        if (count_ == kMax) [[unlikely]] fail_misuse(api_, "more than ", kMax, " operands");
        ranges_[count_++] = canopy::kernel::ascendc::ub_range(api_, role, access,
                                                             static_cast<const std::byte*>(first), bytes);
    }

    static constexpr std::size_t kMax = 10;
    const char* api_;
    canopy::kernel::Operand ranges_[kMax] = {};
    std::size_t count_ = 0;
};

// `length` elements at `data` read in compute precision, as an Eigen array expression.
template <typename T>
inline auto in(const T* data, int64_t length) {
    return canopy::kernel::ascendc::ConstArrayMap<T>(data, length).template cast<compute_t<T>>();
}

// Stores a compute-precision array into `length` elements at `data` (rounded, saturated as the
// vector unit does).
template <typename T, typename Expression>
inline void out(T* data, int64_t length, const Expression& value) {
    canopy::kernel::ascendc::store_elements(data, length, value);
}

template <typename T>
using Column = Eigen::Array<compute_t<T>, Eigen::Dynamic, 1>;

// The float types the advanced math operators accept.
template <typename T>
inline constexpr bool is_half_or_float = std::is_same_v<T, float> || std::is_same_v<T, ::half>;


// dst = f(src) over the first `count` elements; `tmp` is the sharedTmpBuffer or null (stack buffer).
template <typename T, typename F>
inline void unary_elementwise(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
                              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                              uint64_t min_tmp, uint64_t count, F f) {
    AdvCall call(api);
    const T* s = call.operand("srcTensor", Access::read, src, count);
    T* d = call.operand("dstTensor", Access::write, dst, count);
    if (tmp != nullptr) {
        call.tmp(*tmp, min_tmp, tiling);
    } else {
        call.stack(min_tmp, tiling);
    }
    call.issue();
    const int64_t n = static_cast<int64_t>(count);
    out(d, n, Column<T>(f(in(s, n))));
}

// dst = f(src0, src1) over the first `count` elements.
template <typename T, typename F>
inline void binary_elementwise(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
                               const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                               const AscendC::LocalTensor<uint8_t>* tmp, uint64_t min_tmp, uint64_t count, F f) {
    AdvCall call(api);
    const T* a = call.operand("src0Tensor", Access::read, src0, count);
    const T* b = call.operand("src1Tensor", Access::read, src1, count);
    T* d = call.operand("dstTensor", Access::write, dst, count);
    if (tmp != nullptr) {
        call.tmp(*tmp, min_tmp, tiling);
    } else {
        call.stack(min_tmp, tiling);
    }
    call.issue();
    const int64_t n = static_cast<int64_t>(count);
    out(d, n, Column<T>(f(in(a, n), in(b, n))));
}

// A scalar function applied to each element of an array expression.
template <typename F>
inline auto each(F f) {
    return [f](const auto& x) {
        using Scalar = typename std::decay_t<decltype(x)>::Scalar;
        return x.unaryExpr([f](Scalar v) { return static_cast<Scalar>(f(v)); });
    };
}

}  // namespace canopy::kernel::adv

// The four forms CANN gives a unary operator: (dst, src, sharedTmpBuffer, calCount), (dst, src,
// sharedTmpBuffer), (dst, src, calCount), (dst, src); `min_tmp` is an expression of T (the minimum
// sharedTmpBuffer bytes), `f` maps a compute-precision array to the results.
#define CANOPY_ADV_UNARY(Name, tiling, min_tmp, f)                                                                   \
    template <typename T, bool isReuseSource = false>                                                               \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {              \
        canopy::kernel::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, &sharedTmpBuffer, (min_tmp),     \
                                               calCount, f);                                                         \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
                                const LocalTensor<uint8_t>& sharedTmpBuffer) {                                       \
        canopy::kernel::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, &sharedTmpBuffer, (min_tmp),     \
                                               srcTensor.GetSize(), f);                                              \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                    \
                                const uint32_t calCount) {                                                           \
        canopy::kernel::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, nullptr, (min_tmp), calCount, f); \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                               \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                  \
        canopy::kernel::adv::unary_elementwise(#Name, tiling, dstTensor, srcTensor, nullptr, (min_tmp),              \
                                               srcTensor.GetSize(), f);                                              \
    }
