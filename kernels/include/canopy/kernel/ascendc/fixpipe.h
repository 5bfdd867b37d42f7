#pragma once
// The FIX pipe: Fixpipe (and DataCopy with DataCopyCO12DstParams) moves an mSize x nSize result out
// of L0C (Nz, column blocks srcStride rows apart) to GM or L1, as ND rows (NZ2ND, ndNum matrices) or
// as Nz column blocks, converting on the way: a plain cast (F322F16, F322BF16), or a quantization
// with one scale word for the whole matrix (DEQF16, QF322B8_PRE, REQ8) or one per column (VDEQF16,
// VQF322B8_PRE, VREQ8), and the normal ReLU. A scale word holds a float in bits 0..31 (the hardware
// keeps 10 mantissa bits), the shift N in 32..35 and its enable bit 36, a 9-bit offset in 37..45 and
// the signed-result bit 46. Every form goes through canopy::kernel::ascendc::fixpipe. Into GM, the
// core's atomic mode (SetAtomicAdd / Max / Min, atomic.h) combines each result with what GM holds, as
// the NPU's FIX pipe does (catlass's split-K matmuls accumulate their K slices that way).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "canopy/kernel/ascendc/atomic.h"
#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

// One Fixpipe move, its settings resolved.
struct FixpipeMove {
    uint16_t nSize = 0, mSize = 0, srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quant = NoQuant;
    uint64_t scalar = 0;              // the scale word of the scalar modes
    const uint64_t* vector = nullptr;  // the scale words of the vector modes, one per column
    uint64_t vector_length = 0;
    bool relu = false;
    uint16_t ndNum = 1, srcNdStride = 0;
    uint32_t dstNdStride = 0;
    AscendC::CO2Layout layout = AscendC::CO2Layout::ROW_MAJOR;
    bool channelSplit = false;
    bool unitFlag = false;  // ordered after Mmad by the unit flags (pipes.h)
};

struct ScaleWord {
    float m1;
    uint32_t shift;
    bool shift_enabled;
    int32_t offset;
    bool signed_result;
};

inline ScaleWord decode_scale(uint64_t word) {
    ScaleWord s;
    const uint32_t bits = uint32_t(word) & 0xFFFFE000u;  // the hardware reads 1 + 8 + 10 bits
    std::memcpy(&s.m1, &bits, sizeof(float));
    s.shift = uint32_t(word >> 32) & 0xF;
    s.shift_enabled = (word >> 36) & 1;
    s.offset = int32_t(word >> 37) & 0x1FF;
    s.signed_result = (word >> 46) & 1;
    return s;
}

inline bool vector_mode(QuantMode_t mode) { return mode == VDEQF16 || mode == VQF322B8_PRE || mode == VREQ8; }

inline float saturate(float value, float low, float high) { return std::min(std::max(value, low), high); }

// Whether `mode` turns Acc accumulators into Out elements.
template <typename Out, typename Acc>
constexpr bool fixpipe_converts(QuantMode_t mode) {
    constexpr bool byte_out = std::is_same_v<Out, int8_t> || std::is_same_v<Out, uint8_t>;
    switch (mode) {
        case NoQuant: return std::is_same_v<Out, Acc>;
        case F322F16: return std::is_same_v<Acc, float> && std::is_same_v<Out, half>;
        case F322BF16: return std::is_same_v<Acc, float> && std::is_same_v<Out, Eigen::bfloat16>;
        case DEQF16:
        case VDEQF16: return std::is_same_v<Acc, int32_t> && std::is_same_v<Out, half>;
        case QF322B8_PRE:
        case VQF322B8_PRE: return std::is_same_v<Acc, float> && byte_out;
        case REQ8:
        case VREQ8: return std::is_same_v<Acc, int32_t> && byte_out;
        default: return false;
    }
}

template <typename Out, typename Acc>
inline Out fixpipe_convert(Acc value, const FixpipeMove& f, uint64_t word) {
    switch (f.quant) {
        case NoQuant:
            if constexpr (std::is_same_v<Out, Acc>) return f.relu ? std::max(value, Acc(0)) : value;
            break;
        case F322F16:
        case F322BF16: {
            const float x = float(value);
            return Out(f.relu ? std::max(x, 0.0f) : x);
        }
        default: {
            const ScaleWord s = decode_scale(word);
            float x;
            if constexpr (std::is_same_v<Acc, int32_t>) {
                int32_t integer = value;
                if (s.shift_enabled) integer = std::clamp(integer >> s.shift, -32768, 32767);
                x = float(integer);
            } else {
                x = float(value);
            }
            x *= x >= 0 ? s.m1 : (f.relu ? 0.0f : s.m1);
            if constexpr (std::is_same_v<Out, half>) {
                return Out(saturate(x, -65504.0f, 65504.0f));
            } else if constexpr (std::is_same_v<Out, int8_t> || std::is_same_v<Out, uint8_t>) {
                const float quantized = std::nearbyint(saturate(x, -256.0f, 255.0f)) + float(s.offset);
                const float low = s.signed_result ? -128.0f : 0.0f;
                const float high = s.signed_result ? 127.0f : 255.0f;
                return Out(int32_t(std::nearbyint(saturate(quantized, low, high))));
            }
            break;
        }
    }
    return Out{};
}

// The destination elements a move spans (the highest index written, plus one).
template <typename Out>
inline uint64_t fixpipe_extent(const FixpipeMove& f, int64_t block_width) {
    if (f.layout == AscendC::CO2Layout::ROW_MAJOR) {
        return uint64_t(f.ndNum - 1) * f.dstNdStride + uint64_t(f.mSize - 1) * f.dstStride + f.nSize;
    }
    const int64_t blocks = ceil_div(f.nSize, block_width);
    const uint64_t block_stride = uint64_t(f.dstStride) * 32 / sizeof(Out);
    return uint64_t(blocks - 1) * block_stride + uint64_t(f.mSize) * block_width;
}

template <typename Out>
inline int64_t nz_block_width(const FixpipeMove& f) {
    if constexpr (sizeof(Out) == 4) return f.channelSplit ? 8 : 16;
    return 32 / int64_t(sizeof(Out));
}

// Bytes of L0C a move reads.
template <typename Acc>
inline uint64_t fixpipe_src_bytes(const AscendC::LocalTensor<Acc>&, const FixpipeMove& f) {
    const int64_t matrices = f.layout == AscendC::CO2Layout::ROW_MAJOR ? f.ndNum : 1;
    return uint64_t((matrices - 1) * int64_t(f.srcNdStride) * 256 +
                    (ceil_div(f.nSize, 16) - 1) * int64_t(f.srcStride) * 16 + int64_t(f.mSize) * 16) *
           sizeof(Acc);
}

// Checks the move against src and the quantization settings; returns the destination extent.
template <typename Out, typename Acc>
inline uint64_t check_fixpipe(const AscendC::LocalTensor<Acc>& src, const FixpipeMove& f, const char* api) {
    require_memory(src, AscendC::Hardware::L0C, api, "src");
    require_alignment(src, 64, api, "src");
    static_assert(std::is_same_v<Acc, float> || std::is_same_v<Acc, int32_t>, "L0C holds float or int32_t");
    if (!fixpipe_converts<Out, Acc>(f.quant)) [[unlikely]] {
        fail_misuse(api, "quantPre ", int(f.quant), " does not turn ", sizeof(Acc), "-byte L0C elements into ",
                    sizeof(Out), "-byte destination elements (NoQuant keeps the type; F322F16 / F322BF16 cast "
                    "float; DEQF16 / VDEQF16 make half of int32; QF322B8_PRE / VQF322B8_PRE / REQ8 / VREQ8 make "
                    "int8 or uint8)");
    }
    if (f.layout == AscendC::CO2Layout::COLUMN_MAJOR) [[unlikely]] {
        fail_misuse(api, "the column-major (NZ2DN) output is an Ascend 950 feature; the A2 writes ND or Nz");
    }
    if (f.channelSplit && !(std::is_same_v<Out, float> && std::is_same_v<Acc, float>)) [[unlikely]] {
        fail_misuse(api, "isChannelSplit needs float in L0C and float out");
    }
    if (f.layout == AscendC::CO2Layout::ROW_MAJOR && f.ndNum == 0) return 0;
    if (f.mSize == 0 || f.nSize == 0) return 0;
    if (f.srcStride < f.mSize) [[unlikely]] {
        fail_misuse(api, "srcStride ", f.srcStride, " rows is less than mSize ", f.mSize);
    }
    if (f.layout == AscendC::CO2Layout::ROW_MAJOR && f.dstStride < f.nSize) [[unlikely]] {
        fail_misuse(api, "dstStride ", f.dstStride, " elements is less than nSize ", f.nSize);
    }
    if (vector_mode(f.quant) && f.vector_length < f.nSize) [[unlikely]] {
        fail_misuse(api, "the vector quantization has ", f.vector_length, " scale words for nSize ", f.nSize,
                    " columns");
    }
    require_elements(src, int64_t(fixpipe_src_bytes(src, f) / sizeof(Acc)), api, "src (L0C elements read)");
    return fixpipe_extent<Out>(f, nz_block_width<Out>(f));
}

// Writes each converted element through store(destination, value).
template <typename Out, typename Acc, typename Store>
inline void fixpipe(Out* to, const AscendC::LocalTensor<Acc>& src, const FixpipeMove& f, Store store) {
    const Acc* from = src.landed_address();
    const bool vector = vector_mode(f.quant);
    // The scale words are loaded before any result is written (the destination may overlap them in L1).
    thread_local std::vector<uint64_t> words;
    if (vector) words.assign(f.vector, f.vector + f.nSize);
    if (f.layout == AscendC::CO2Layout::ROW_MAJOR) {
        for (int64_t matrix = 0; matrix < f.ndNum; ++matrix) {
            const Acc* nz = from + matrix * int64_t(f.srcNdStride) * 256;
            Out* nd = to + matrix * int64_t(f.dstNdStride);
            for (int64_t m = 0; m < f.mSize; ++m) {
                for (int64_t n = 0; n < f.nSize; ++n) {
                    const Acc value = nz[(n / 16) * int64_t(f.srcStride) * 16 + m * 16 + n % 16];
                    store(nd + m * int64_t(f.dstStride) + n,
                          fixpipe_convert<Out, Acc>(value, f, vector ? words[n] : f.scalar));
                }
            }
        }
        return;
    }
    const int64_t width = nz_block_width<Out>(f);
    const int64_t block_stride = int64_t(f.dstStride) * 32 / int64_t(sizeof(Out));
    for (int64_t m = 0; m < f.mSize; ++m) {
        for (int64_t n = 0; n < f.nSize; ++n) {
            const Acc value = from[(n / 16) * int64_t(f.srcStride) * 16 + m * 16 + n % 16];
            store(to + (n / width) * block_stride + m * width + n % width,
                  fixpipe_convert<Out, Acc>(value, f, vector ? words[n] : f.scalar));
        }
    }
}

inline FixpipeMove fixpipe_move(const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
    FixpipeMove f;
    f.nSize = p.nSize;
    f.mSize = p.mSize;
    f.srcStride = p.srcStride;
    f.dstStride = p.dstStride;
    f.quant = p.quantPre;
    f.scalar = p.deqScalar;
    f.relu = p.reluEn;
    f.ndNum = p.ndNum;
    f.srcNdStride = p.srcNdStride;
    f.dstNdStride = p.dstNdStride;
    f.layout = layout;
    f.channelSplit = p.isChannelSplit;
    f.unitFlag = p.unitFlag != 0;
    return f;
}

#if __NPU_ARCH__ == 3510
// The 950's Fixpipe parameters as one move: the layout is the template's; ND rows take ndNum and
// the strides from params. The ReLU forms beyond the normal one, the column-major (Nz2Dn) output
// and the dual-destination modes are refused by name.
template <AscendC::CO2Layout format>
inline FixpipeMove fixpipe_move(const AscendC::FixpipeParamsArch3510<format>& p, AscendC::CO2Layout layout,
                                const char* api) {
    if (layout != format) [[unlikely]] {
        fail_misuse(api, "the FixpipeConfig's layout and the FixpipeParamsArch3510's layout differ");
    }
    if (p.preReluMode != AscendC::ReluMode::NO_RELU && p.preReluMode != AscendC::ReluMode::NORMAL_RELU) [[unlikely]] {
        fail_misuse(api, "preReluMode ", int(p.preReluMode), " (scalar / vector ReLU) is not modelled by Canopy");
    }
    if (p.preClipReluMode != AscendC::ClipReluMode::NOCLIP_RELU) [[unlikely]] {
        fail_misuse(api, "preClipReluMode CLIP_RELU is not modelled by Canopy");
    }
    if (p.dualDstCtl != 0) [[unlikely]] fail_misuse(api, "dualDstCtl ", int(p.dualDstCtl), " applies to a UB destination");
    FixpipeMove f;
    f.nSize = p.nSize;
    f.mSize = p.mSize;
    f.srcStride = p.srcStride;
    f.dstStride = p.dstStride;
    f.quant = p.quantPre;
    f.scalar = p.deqScalar;
    f.relu = p.reluEn || p.preReluMode == AscendC::ReluMode::NORMAL_RELU;
    if constexpr (format == AscendC::CO2Layout::ROW_MAJOR) {
        f.ndNum = p.params.ndNum;
        f.srcNdStride = p.params.srcNdStride;
        f.dstNdStride = p.params.dstNdStride;
    }
    f.layout = layout;
    f.channelSplit = p.isChannelSplit;
    f.unitFlag = p.unitFlag != 0;
    return f;
}

// The 950's Nz output counts dstStride in elements (CANN's fixpipe_l0c2gm sample: "FixpipeParamsArch3510
// dstStride is in elements" for NZ2NZ), the A2's in 32-byte blocks, which FixpipeMove holds.
template <typename Out>
inline void nz_stride_in_blocks(FixpipeMove& f, const char* api) {
    if (f.layout != AscendC::CO2Layout::NZ) return;
    const uint64_t bytes = uint64_t(f.dstStride) * sizeof(Out);
    if (bytes % 32 != 0) [[unlikely]] {
        fail_misuse(api, "dstStride ", f.dstStride, " elements of ", sizeof(Out),
                    " bytes is not a whole number of 32-byte blocks (the Nz output's unit)");
    }
    f.dstStride = uint32_t(bytes / 32);
}
#endif

inline void require_unit_flag(uint8_t unit_flag, const char* api) {
    if (unit_flag != 0 && unit_flag != 2 && unit_flag != 3) [[unlikely]] {
        fail_misuse(api, "unitFlag ", int(unit_flag), " is not 0 (off), 2 or 3");
    }
}

template <typename Out, typename Acc>
inline void fixpipe_to_gm(const AscendC::GlobalTensor<Out>& dst, const AscendC::LocalTensor<Acc>& src,
                          const FixpipeMove& f, const char* api) {
    const uint64_t extent = check_fixpipe<Out, Acc>(src, f, api);
    if (extent == 0) return;
    Out* to = dst.CheckedSpan(0, extent, true, api);
    issue(Pipe::FIX, api, under_unit_flag(reads(src, fixpipe_src_bytes(src, f)), f.unitFlag));
    const CoreRegisters& registers = core_registers();
    const auto operation = static_cast<AtomicOperation>(registers.atomic_operation);
    if (operation == AtomicOperation::none) {
        fixpipe(to, src, f, [](Out* where, Out value) { *where = value; });
        return;
    }
    const auto element = static_cast<AtomicElement>(registers.atomic_element);
    if (element != atomic_element_of<Out>()) [[unlikely]] {
        fail_misuse(api, "the atomic mode combines ", atomic_element_name(element), " elements but the move writes ",
                    sizeof(Out), "-byte elements of another type (", atomic_element_name(atomic_element_of<Out>()),
                    "); set the mode with the destination's type");
    }
    if constexpr (atomic_element_of<Out>() != AtomicElement::none) {
        fixpipe(to, src, f, [operation](Out* where, Out value) { combine_into(operation, where, &value, 1); });
    }
}

template <typename Out, typename Acc>
inline void fixpipe_to_l1(const AscendC::LocalTensor<Out>& dst, const AscendC::LocalTensor<Acc>& src,
                          const FixpipeMove& f, const char* api) {
    require_memory(dst, AscendC::Hardware::L1, api, "dst");
    require_alignment(dst, 32, api, "dst");
    const uint64_t extent = check_fixpipe<Out, Acc>(src, f, api);
    if (extent == 0) return;
    require_elements(dst, int64_t(extent), api, "dst (elements written)");
    issue(Pipe::FIX, api, under_unit_flag(reads(src, fixpipe_src_bytes(src, f)), f.unitFlag),
          writes(dst, extent * sizeof(Out)));
    fixpipe(dst.landed_address(), src, f, [](Out* where, Out value) { *where = value; });
}

// The scale words of a vector quantization passed as a tensor in L1.
template <typename S>
inline void take_scale_words(FixpipeMove& f, const AscendC::LocalTensor<S>& words, const char* api) {
    static_assert(std::is_same_v<S, uint64_t>, "Fixpipe's quantization words are uint64_t");
    require_memory(words, AscendC::Hardware::L1, api, "cbufWorkspace");
    f.vector = words.landed_address();
    f.vector_length = words.GetSize();
    // A vector mode stages the words through a temporary of the fixpipe buffer and points the FPC
    // register at it (CANN's CopyDeqTensorToFbuf): what SetFixPipeConfig had pointed it at is gone, and
    // the temporary is not the kernel's to scale by.
    if (vector_mode(f.quant)) {
        CubeRegisters& registers = cube_registers();
        registers.quant_vector = nullptr;
        registers.quant_vector_length = 0;
    }
}

// Fixpipe without cbufWorkspace, as CANN's: a scalar mode loads deqScalar into the QUANT_PRE register,
// a vector mode scales by the words in the fixpipe buffer SetFixPipeConfig pointed the FPC register
// at, and the ND output loads ndNum and its strides into the ND_PARA register.
inline void take_registers(FixpipeMove& f, const char* api) {
    CubeRegisters& registers = cube_registers();
    if (f.quant == DEQF16 || f.quant == QF322B8_PRE || f.quant == REQ8) registers.quant_pre = f.scalar;
    if (f.layout == AscendC::CO2Layout::ROW_MAJOR) {
        registers.nd_num = f.ndNum;
        registers.src_nd_stride = f.srcNdStride;
        registers.dst_nd_stride = f.dstNdStride;
    }
    if (!vector_mode(f.quant)) return;
    if (registers.quant_vector == nullptr) [[unlikely]] {
        fail_misuse(api, "quantPre ", int(f.quant), " scales by a vector, but no cbufWorkspace was given and "
                    "SetFixPipeConfig pointed at no words in the fixpipe buffer");
    }
    f.vector = registers.quant_vector;
    f.vector_length = registers.quant_vector_length;
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// L0C -> GM.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format);
    take_registers(f, "Fixpipe");
    fixpipe_to_gm(dst, src, f, "Fixpipe");
}

// L0C -> GM with the vector quantization's scale words in L1.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format);
    take_scale_words(f, cbufWorkspace, "Fixpipe");
    fixpipe_to_gm(dst, src, f, "Fixpipe");
}

// L0C -> L1.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format);
    take_registers(f, "Fixpipe");
    fixpipe_to_l1(dst, src, f, "Fixpipe");
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format);
    take_scale_words(f, cbufWorkspace, "Fixpipe");
    fixpipe_to_l1(dst, src, f, "Fixpipe");
}

#if __NPU_ARCH__ == 3510
// The 950's forms: L0C -> GM and L0C -> L1 with FixpipeParamsArch3510.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format = config.format>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsArch3510<format>& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format, "Fixpipe");
    nz_stride_in_blocks<T>(f, "Fixpipe");
    take_registers(f, "Fixpipe");
    fixpipe_to_gm(dst, src, f, "Fixpipe");
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format = config.format>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsArch3510<format>& intriParams) {
    using namespace canopy::kernel::ascendc;
    require_unit_flag(intriParams.unitFlag, "Fixpipe");
    FixpipeMove f = fixpipe_move(intriParams, config.format, "Fixpipe");
    nz_stride_in_blocks<T>(f, "Fixpipe");
    take_registers(f, "Fixpipe");
    fixpipe_to_l1(dst, src, f, "Fixpipe");
}
#endif

// DataCopy L0C -> GM: the Fixpipe move configured by registers. nz2ndEn selects ND rows (ndNum and
// the strides from SetFixpipeNz2ndFlag; dstStride in elements) over Nz blocks (dstStride in 32-byte
// blocks); the scalar modes scale by SetFixpipePreQuantFlag's word, the vector modes by the words
// SetFixPipeConfig pointed at.
template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyCO12DstParams& intriParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "DataCopy(L0C->GM)";
    const DataCopyCO12DstParams& p = intriParams;
    require_unit_flag(p.unitFlag, api);
    if (p.reluPre > 1) [[unlikely]] fail_misuse(api, "reluPre ", int(p.reluPre), " is not 0 (off) or 1 (normal ReLU)");
    const CubeRegisters& registers = cube_registers();
    FixpipeMove f;
    f.nSize = p.nSize;
    f.mSize = p.mSize;
    f.srcStride = p.srcStride;
    f.dstStride = p.dstStride;
    f.quant = p.quantPre;
    f.scalar = registers.quant_pre;
    f.vector = registers.quant_vector;
    f.vector_length = registers.quant_vector_length;
    f.relu = p.reluPre == 1;
    f.channelSplit = p.channelSplit;
    f.unitFlag = p.unitFlag != 0;
    f.layout = p.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ;
    if (p.nz2ndEn) {
        f.ndNum = registers.nd_num;
        f.srcNdStride = registers.src_nd_stride;
        f.dstNdStride = registers.dst_nd_stride;
    }
    if (vector_mode(f.quant) && f.vector == nullptr) [[unlikely]] {
        fail_misuse(api, "quantPre ", int(f.quant), " scales by a vector, but SetFixPipeConfig set none");
    }
    fixpipe_to_gm(dst, src, f, api);
}

// The vector quantization's scale words for DataCopy L0C -> GM: a tensor in the fixpipe buffer.
// Given an L0C tensor and isUnitFlag, it only clears L0C's unit flags: Canopy's Mmad and Fixpipe
// run whole instructions one after the other, so there are no per-fractal flags left to clear.
template <typename T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
    using namespace canopy::kernel::ascendc;
    const char* api = "SetFixPipeConfig";
    if constexpr (setRelu) fail_misuse(api, "a vector ReLU (setRelu) is not modelled by Canopy");
    if (preData.memory() == Hardware::L0C) {
        if (!isUnitFlag) [[unlikely]] {
            fail_misuse(api, "an L0C tensor only clears the unit flags, and isUnitFlag is false");
        }
        return;
    }
    require_memory(preData, Hardware::FIXBUF, api, "preData");
    if constexpr (!std::is_same_v<T, uint64_t>) {
        fail_misuse(api, "the quantization words are uint64_t; preData has ", sizeof(T), "-byte elements");
    } else {
        CubeRegisters& registers = cube_registers();
        registers.quant_vector = preData.landed_address();
        registers.quant_vector_length = preData.GetSize();
    }
}

// With a vector ReLU as well: the A2's per-column ReLU slopes are not modelled.
template <typename T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>&, const LocalTensor<T>&, bool = false) {
    canopy::kernel::ascendc::fail_misuse("SetFixPipeConfig", "a vector ReLU (reluPre tensor) is not modelled by "
                                                             "Canopy");
}

__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride) {
    canopy::kernel::ascendc::CubeRegisters& registers = canopy::kernel::ascendc::cube_registers();
    registers.nd_num = ndNum;
    registers.src_nd_stride = srcNdStride;
    registers.dst_nd_stride = dstNdStride;
}

__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
    SetFixpipeNz2ndFlag(ndNum, srcNdStride, uint32_t(dstNdStride));
}

__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config) {
    canopy::kernel::ascendc::cube_registers().quant_pre = config;
}

}  // namespace AscendC
