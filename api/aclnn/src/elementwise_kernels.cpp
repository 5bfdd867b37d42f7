// The element-wise kernels (see elementwise_kernels.h), written as Ascend C kernels are written for
// the NPU: GlobalTensor views of the operands, TPipe / TQue double buffering, vector instructions
// on UB tiles; and the launches that pick the instantiation for the operands' element types.
#include "elementwise_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"

namespace canopy::aclnn {

namespace {

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_BYTES = 8192;
constexpr uint32_t FLOATS_PER_REPEAT = AscendC::ONE_REPEAT_BYTE_SIZE / sizeof(float);
// The vector cores of an Atlas A2: no launch needs more blocks than that to fill the device.
constexpr uint64_t MAX_BLOCKS = 48;

template <class T>
constexpr bool narrow_float = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T>
constexpr bool is_float = std::is_floating_point_v<T> || narrow_float<T>;

// Narrow floats are computed in float and rounded once, as the vector unit does.
template <class T>
using wide_t = std::conditional_t<narrow_float<T>, float, T>;

template <class T>
struct BinaryTiling {
    uint64_t total;
    uint64_t blockLength;  // a multiple of tileLength
    uint32_t tileLength;   // tileLength * sizeof(T) is TILE_BYTES
    BinaryOp op;
    wide_t<T> alpha;
};

template <class T>
class BinaryKernel {
public:
    __aicore__ inline BinaryKernel() {}

    __aicore__ inline void Init(GM_ADDR self, GM_ADDR other, GM_ADDR out, const BinaryTiling<T>& tiling) {
        tiling_ = tiling;
        const uint64_t start = tiling.blockLength * AscendC::GetBlockIdx();
        length_ = start < tiling.total ? std::min<uint64_t>(tiling.blockLength, tiling.total - start) : 0;
        if (length_ == 0) return;
        selfGm_.SetGlobalBuffer((__gm__ T*)self + start, length_);
        otherGm_.SetGlobalBuffer((__gm__ T*)other + start, length_);
        outGm_.SetGlobalBuffer((__gm__ T*)out + start, length_);
        pipe_.InitBuffer(selfQueue_, BUFFER_NUM, TILE_BYTES);
        pipe_.InitBuffer(otherQueue_, BUFFER_NUM, TILE_BYTES);
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, TILE_BYTES);
        if constexpr (narrow_float<T>) {
            pipe_.InitBuffer(selfWide_, tiling.tileLength * sizeof(float));
            pipe_.InitBuffer(otherWide_, tiling.tileLength * sizeof(float));
        }
    }

    __aicore__ inline void Process() {
        for (uint64_t done = 0; done < length_; done += tiling_.tileLength) {
            const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(tiling_.tileLength, length_ - done));
            CopyIn(done, count);
            Compute(count);
            CopyOut(done, count);
        }
    }

private:
    static __aicore__ inline AscendC::DataCopyExtParams Burst(uint32_t count) {
        return AscendC::DataCopyExtParams(1, count * sizeof(T), 0, 0, 0);
    }

    __aicore__ inline void CopyIn(uint64_t at, uint32_t count) {
        AscendC::LocalTensor<T> selfLocal = selfQueue_.template AllocTensor<T>();
        AscendC::LocalTensor<T> otherLocal = otherQueue_.template AllocTensor<T>();
        const AscendC::DataCopyPadExtParams<T> noPadding(false, 0, 0, T(0));
        AscendC::DataCopyPad(selfLocal, selfGm_[at], Burst(count), noPadding);
        AscendC::DataCopyPad(otherLocal, otherGm_[at], Burst(count), noPadding);
        selfQueue_.EnQue(selfLocal);
        otherQueue_.EnQue(otherLocal);
    }

    // dst = a (op) b on `count` elements of the compute type; b may be overwritten.
    template <class W>
    __aicore__ inline void Apply(const AscendC::LocalTensor<W>& dst, const AscendC::LocalTensor<W>& a,
                                 const AscendC::LocalTensor<W>& b, uint32_t count) {
        if (tiling_.op == BinaryOp::mul) {
            AscendC::Mul(dst, a, b, count);
            return;
        }
        if (tiling_.alpha != W(1)) AscendC::Muls(b, b, static_cast<W>(tiling_.alpha), count);
        AscendC::Add(dst, a, b, count);
    }

    // The conversions in the repeat form: the narrow side of a repeat of 64 elements spans 4 data
    // blocks, the float side 8; the last repeat is masked to the elements left.
    template <class D, class S>
    static __aicore__ inline void CastRepeats(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                                              AscendC::RoundMode mode, uint32_t count) {
        const AscendC::UnaryRepeatParams params(1, 1, sizeof(D) == sizeof(float) ? 8 : 4,
                                                sizeof(S) == sizeof(float) ? 8 : 4);
        const uint32_t full = count / FLOATS_PER_REPEAT;
        const uint32_t rest = count % FLOATS_PER_REPEAT;
        if (full != 0) AscendC::Cast(dst, src, mode, FLOATS_PER_REPEAT, static_cast<uint8_t>(full), params);
        if (rest != 0) {
            const uint32_t at = full * FLOATS_PER_REPEAT;
            AscendC::Cast(dst[at], src[at], mode, rest, 1, params);
        }
    }
    static __aicore__ inline void Widen(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<T>& src,
                                        uint32_t count) {
        CastRepeats(dst, src, AscendC::RoundMode::CAST_NONE, count);
    }
    static __aicore__ inline void Narrow(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<float>& src,
                                         uint32_t count) {
        CastRepeats(dst, src, AscendC::RoundMode::CAST_RINT, count);
    }

    __aicore__ inline void Compute(uint32_t count) {
        AscendC::LocalTensor<T> selfLocal = selfQueue_.template DeQue<T>();
        AscendC::LocalTensor<T> otherLocal = otherQueue_.template DeQue<T>();
        AscendC::LocalTensor<T> outLocal = outQueue_.template AllocTensor<T>();
        if constexpr (narrow_float<T>) {
            AscendC::LocalTensor<float> a = selfWide_.template Get<float>();
            AscendC::LocalTensor<float> b = otherWide_.template Get<float>();
            Widen(a, selfLocal, count);
            Widen(b, otherLocal, count);
            Apply(a, a, b, count);
            Narrow(outLocal, a, count);
        } else {
            Apply(outLocal, selfLocal, otherLocal, count);
        }
        outQueue_.EnQue(outLocal);
        selfQueue_.FreeTensor(selfLocal);
        otherQueue_.FreeTensor(otherLocal);
    }

    __aicore__ inline void CopyOut(uint64_t at, uint32_t count) {
        AscendC::LocalTensor<T> outLocal = outQueue_.template DeQue<T>();
        AscendC::DataCopyPad(outGm_[at], outLocal, Burst(count));
        outQueue_.FreeTensor(outLocal);
    }

    BinaryTiling<T> tiling_{};
    uint64_t length_ = 0;
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> selfQueue_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> otherQueue_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> selfWide_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> otherWide_;
    AscendC::GlobalTensor<T> selfGm_;
    AscendC::GlobalTensor<T> otherGm_;
    AscendC::GlobalTensor<T> outGm_;
};

template <class T>
__global__ __aicore__ void binary_kernel(GM_ADDR self, GM_ADDR other, GM_ADDR out, BinaryTiling<T> tiling) {
    BinaryKernel<T> op;
    op.Init(self, other, out, tiling);
    op.Process();
}

// One element from S to D as a cast does on the NPU: to a float type by rounding to nearest; from a
// float to an integer type by truncating toward zero and saturating (NaN becomes 0); between
// integer types by keeping the low bits.
template <class S, class D>
__aicore__ inline D Convert(S value) {
    if constexpr (std::is_same_v<S, D>) {
        return value;
    } else if constexpr (is_float<D>) {
        if constexpr (narrow_float<S> || narrow_float<D>) return static_cast<D>(static_cast<float>(value));
        else return static_cast<D>(value);
    } else if constexpr (is_float<S>) {
        const double exact = static_cast<double>(static_cast<wide_t<S>>(value));
        if (std::isnan(exact)) return D(0);
        const double truncated = std::trunc(exact);
        if (truncated <= static_cast<double>(std::numeric_limits<D>::lowest())) return std::numeric_limits<D>::lowest();
        if (truncated >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        return static_cast<D>(truncated);
    } else {
        return static_cast<D>(value);
    }
}

template <class S, class D>
__global__ __aicore__ void copy_kernel(GM_ADDR src, GM_ADDR dst, CopyTiling tiling) {
    const uint64_t start = tiling.blockLength * AscendC::GetBlockIdx();
    if (start >= tiling.total) return;
    const uint64_t end = std::min<uint64_t>(tiling.total, start + tiling.blockLength);
    AscendC::GlobalTensor<S> srcGm;
    AscendC::GlobalTensor<D> dstGm;
    srcGm.SetGlobalBuffer((__gm__ S*)src, tiling.srcExtent);
    dstGm.SetGlobalBuffer((__gm__ D*)dst, tiling.dstExtent);
    // The index of element `start`, then counted up element by element, last dimension fastest.
    int64_t index[max_rank] = {};
    uint64_t rest = start;
    int64_t srcAt = 0;
    int64_t dstAt = 0;
    for (int32_t d = static_cast<int32_t>(tiling.rank) - 1; d >= 0; --d) {
        index[d] = static_cast<int64_t>(rest % static_cast<uint64_t>(tiling.sizes[d]));
        rest /= static_cast<uint64_t>(tiling.sizes[d]);
        srcAt += index[d] * tiling.srcStrides[d];
        dstAt += index[d] * tiling.dstStrides[d];
    }
    for (uint64_t i = start; i < end; ++i) {
        dstGm.SetValue(dstAt, Convert<S, D>(srcGm.GetValue(srcAt)));
        for (int32_t d = static_cast<int32_t>(tiling.rank) - 1; d >= 0; --d) {
            srcAt += tiling.srcStrides[d];
            dstAt += tiling.dstStrides[d];
            if (++index[d] < tiling.sizes[d]) break;
            srcAt -= index[d] * tiling.srcStrides[d];
            dstAt -= index[d] * tiling.dstStrides[d];
            index[d] = 0;
        }
    }
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The element types the operators compute on, with the name each kernel instantiation reports.
template <class T> struct Element;
template <> struct Element<float> { static constexpr const char* name = "float"; };
template <> struct Element<half> { static constexpr const char* name = "half"; };
template <> struct Element<bfloat16_t> { static constexpr const char* name = "bfloat16"; };
template <> struct Element<double> { static constexpr const char* name = "double"; };
template <> struct Element<int8_t> { static constexpr const char* name = "int8"; };
template <> struct Element<uint8_t> { static constexpr const char* name = "uint8"; };
template <> struct Element<int16_t> { static constexpr const char* name = "int16"; };
template <> struct Element<int32_t> { static constexpr const char* name = "int32"; };
template <> struct Element<int64_t> { static constexpr const char* name = "int64"; };

// Calls visit(T{}) for the element type of `dtype`; false if it is not one of them.
template <class Visit>
bool with_element(aclDataType dtype, Visit&& visit) {
    switch (dtype) {
        case ACL_FLOAT: visit(float{}); return true;
        case ACL_FLOAT16: visit(half{}); return true;
        case ACL_BF16: visit(bfloat16_t{}); return true;
        case ACL_DOUBLE: visit(double{}); return true;
        case ACL_INT8: visit(int8_t{}); return true;
        case ACL_UINT8: visit(uint8_t{}); return true;
        case ACL_INT16: visit(int16_t{}); return true;
        case ACL_INT32: visit(int32_t{}); return true;
        case ACL_INT64: visit(int64_t{}); return true;
        default: return false;
    }
}

template <class T>
const char* binary_name() {
    static const std::string name = std::string("aclnn_binary_") + Element<T>::name;
    return name.c_str();
}
template <class S, class D>
const char* copy_name() {
    static const std::string name = std::string("aclnn_copy_") + Element<S>::name + "_to_" + Element<D>::name;
    return name.c_str();
}

}  // namespace

bool binary_supports(aclDataType dtype) {
    return with_element(dtype, [](auto) {});
}

uint32_t launch_binary(aclDataType dtype, aclrtStream stream, void* self, void* other, void* out,
                       const BinaryLaunch& launch) {
    uint32_t result = ACL_ERROR_INVALID_PARAM;
    with_element(dtype, [&](auto element) {
        using T = decltype(element);
        BinaryTiling<T> tiling{};
        tiling.total = launch.total;
        tiling.tileLength = TILE_BYTES / sizeof(T);
        const uint64_t tiles = ceil_div(launch.total, tiling.tileLength);
        const uint64_t blocks = std::clamp<uint64_t>(tiles, 1, MAX_BLOCKS);
        tiling.blockLength = ceil_div(tiles, blocks) * tiling.tileLength;
        tiling.op = launch.op;
        if constexpr (is_float<T>) tiling.alpha = static_cast<wide_t<T>>(launch.alpha_float);
        else tiling.alpha = static_cast<T>(launch.alpha_integer);
        result = canopy::kernel::WrapperLaunch<binary_kernel<T>>(binary_name<T>())(
            static_cast<uint32_t>(ceil_div(launch.total, tiling.blockLength)), stream, self, other, out, tiling);
    });
    return result;
}

uint32_t launch_copy(aclDataType src_dtype, aclDataType dst_dtype, aclrtStream stream, void* src, void* dst,
                     CopyTiling tiling) {
    // A block copies at least this many elements: the scalar loop is cheap per element, a block is not.
    constexpr uint64_t min_block_elements = 16384;
    const uint64_t blocks = std::clamp<uint64_t>(ceil_div(tiling.total, min_block_elements), 1, MAX_BLOCKS);
    tiling.blockLength = ceil_div(tiling.total, blocks);
    uint32_t result = ACL_ERROR_INVALID_PARAM;
    with_element(src_dtype, [&](auto source) {
        with_element(dst_dtype, [&](auto destination) {
            using S = decltype(source);
            using D = decltype(destination);
            result = canopy::kernel::WrapperLaunch<copy_kernel<S, D>>(copy_name<S, D>())(
                static_cast<uint32_t>(ceil_div(tiling.total, tiling.blockLength)), stream, src, dst, tiling);
        });
    });
    return result;
}

}  // namespace canopy::aclnn
