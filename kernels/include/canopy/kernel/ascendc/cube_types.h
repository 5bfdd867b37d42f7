#pragma once
// The cube path's vocabulary: the parameter structs of LoadData, Mmad, Fixpipe and InitConstValue
// (names, field types, defaults and constructor orders as in Ascend C), the fractal geometry every
// cube instruction shares, and the core's cube registers (the feature-map description of the
// img2col loads, their padding value, the Fixpipe quantization and NZ2ND settings) that the Set*
// calls write and later instructions read.
//
// Layouts, with C0 = 32 bytes of elements (16 for half, 8 for float, 32 for int8, 64 for int4) and
// 512-byte fractals of 16 rows x C0 columns:
//   L1 "Nz" (DataCopy with Nd2NzParams): column blocks of C0 columns, each block row-major.
//   L0A "Zz": fractal (m / 16, k / C0) at (m / 16) * kFractals + k / C0, each fractal row-major.
//   L0B "Zn": fractal (k / C0, n / 16) at (k / C0) * nFractals + n / 16, each fractal holding 16
//        n-rows of C0 k-values (the fractal stored transposed).
//   L0C "Nz" of 16 x 16 fractals: column block n / 16 holds (m rounded up to 16) rows of 16.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/instruction.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/system.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

// An element-typed parameter field that takes plain numbers, as the NPU compiler's half does
// (`params.padValue = 0;`), where Eigen::bfloat16 only converts explicitly.
template <typename T>
struct ElementValue {
    T value{};
    ElementValue() = default;
    template <typename V, std::enable_if_t<std::is_arithmetic_v<V> || std::is_same_v<V, T>, int> = 0>
    ElementValue(V number) : value(static_cast<T>(number)) {}
    operator T() const { return value; }
};

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// A signed 4-bit integer, two to a byte in memory (the even element in the low nibble). The value
// is one element; a LocalTensor<int4b_t> counts elements, half bytes (local_tensor.h).
struct int4b_t {
    uint8_t storage = 0;
    __aicore__ inline int4b_t() = default;
    __aicore__ inline int4b_t(int32_t value) : storage(uint8_t(value) & 0xF) {}
    __aicore__ inline operator int32_t() const { return (storage & 0x8) ? int32_t(storage) - 16 : int32_t(storage); }
};

template <>
struct SizeOfBits<int4b_t> {
    static constexpr uint32_t value = 4;
};

struct LoadData2DParams {
    __aicore__ LoadData2DParams() {}
    __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                                const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn,
                                const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}

    uint16_t startIndex = 0;  // first source fractal
    uint16_t dstGap = 0;      // fractals skipped between two destination fractals
    uint16_t srcStride = 0;   // fractals from one source fractal to the next
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;  // fractals moved
    uint8_t sid = 0;
    uint8_t addrMode = 0;  // 0: the source advances by srcStride, 1: it goes back by srcStride
};
using LoadData2dParams = LoadData2DParams;

// The Ascend 950 form of the 2D load; the A2 has no instruction for it (LoadData refuses it).
struct LoadData2DParamsV2 {
    __aicore__ LoadData2DParamsV2() {}
    __aicore__ LoadData2DParamsV2(const uint32_t mStartPositionIn, const uint32_t kStartPositionIn,
                                  const uint16_t mStepIn, const uint16_t kStepIn, const int32_t srcStrideIn,
                                  const uint16_t dstStrideIn, const bool ifTransposeIn, const uint8_t sidIn)
        : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
          srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn) {}

    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};

// LoadDataWithTranspose: square blocks (16 x 16 for 2- and 4-byte elements, 32 x 32 for 1-byte ones)
// transposed on the way from L1 to L0A / L0B. srcStride counts squares; dstGap and dstFracGap count
// 512-byte fractals.
struct LoadData2dTransposeParams {
    __aicore__ LoadData2dTransposeParams() {}
    __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstfracGapIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn), addrMode(addrModeIn) {}
    __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                         const uint16_t srcStrideIn, const uint16_t dstGapIn,
                                         const uint16_t dstfracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn) {}

    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

constexpr int32_t PAD_SIZE = 4;  // padList: left, right, top, bottom

// Which settings the img2col LoadData takes from its parameters (true) rather than from the
// registers SetFmatrix / SetLoadDataPaddingValue wrote (false).
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

// The img2col load of an NC1HWC0 feature map in L1 into L0A / L0B.
template <typename T>
struct LoadData3DParamsV2 {
    __aicore__ LoadData3DParamsV2() {}
    __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                  const uint16_t channelSizeIn, const uint16_t kExtensionIn,
                                  const uint16_t mExtensionIn, const uint16_t kStartPtIn, const uint16_t mStartPtIn,
                                  const uint8_t strideWIn, const uint8_t strideHIn, const uint8_t filterWIn,
                                  const uint8_t filterHIn, const uint8_t dilationFilterWIn,
                                  const uint8_t dilationFilterHIn, const bool enTransposeIn, const bool enSmallKIn,
                                  const T padValueIn)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn) {
        for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                  const uint16_t channelSizeIn, const uint16_t kExtensionIn,
                                  const uint16_t mExtensionIn, const uint16_t kStartPtIn, const uint16_t mStartPtIn,
                                  const uint8_t strideWIn, const uint8_t strideHIn, const uint8_t filterWIn,
                                  const uint8_t filterHIn, const uint8_t dilationFilterWIn,
                                  const uint8_t dilationFilterHIn, const bool enTransposeIn, const bool enSmallKIn,
                                  const T padValueIn, const bool filterSizeWIn, const bool filterSizeHIn,
                                  const bool fMatrixCtrlIn)
        : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn,
                             mStartPtIn, strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn,
                             dilationFilterHIn, enTransposeIn, enSmallKIn, padValueIn) {
        filterSizeW = filterSizeWIn;
        filterSizeH = filterSizeHIn;
        fMatrixCtrl = fMatrixCtrlIn;
    }

    uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    canopy::kernel::ascendc::ElementValue<T> padValue = T(0);
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

// The img2col load with the extents and the filter packed into two words; the feature map comes
// from SetFmatrix.
struct LoadData3DParamsV2Pro {
    __aicore__ LoadData3DParamsV2Pro() {}
    __aicore__ LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                                     const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                                     const uint64_t extConfigIn, const uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn),
          filterConfig(filterConfigIn) {}

    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;  // mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
    uint64_t filterConfig = 0X10101010101;  // dilationH << 40 | dilationW << 32 | filterH << 24 | filterW << 16 |
                                           // strideH << 8 | strideW
};

enum class FmatrixMode : uint8_t {
    FMATRIX_LEFT = 0,
    FMATRIX_RIGHT = 1,
};

// SetLoadDataRepeat: repeats of the img2col load, repeatStride apart in the destination.
struct LoadDataRepeatParam {
    __aicore__ LoadDataRepeatParam() {}
    __aicore__ LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                                   const uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}

    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
};

#if __NPU_ARCH__ == 3510
// The Ascend 950's img2col repeat register (SetLoadDataRepeatWithStride): LoadDataRepeatParam and
// dstStride, the distance in 512-byte fractals between the output's columns of fractals.
struct LoadDataRepeatParamWithStride {
    __aicore__ LoadDataRepeatParamWithStride() {}
    __aicore__ LoadDataRepeatParamWithStride(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn,
                                             const uint8_t repeatModeIn, const uint16_t dstStrideIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn), dstStride(dstStrideIn) {}

    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
#endif

struct MmadParams {
    __aicore__ MmadParams() {}
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
                          const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
                          const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
                          const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}

    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;  // the older spelling of "accumulate onto what L0C holds"
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;  // float: L0A's k extent is rounded up to 16, not 8
    bool cmatrixSource = false;    // the initial C comes from the bias table (C2), not from L0C
    bool cmatrixInitVal = true;    // C starts at zero
#if __NPU_ARCH__ == 3510
    bool disableGemv = false;      // the 950: m == 1 reads A as Nz fractals, not as one ND row
#endif
};

template <typename T>
struct InitConstValueParams {
    __aicore__ InitConstValueParams() {}
    __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                                    const T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn)
        : repeatTimes(repeatTimesIn), initValue(initValueIn) {}

    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;  // 512-byte blocks per repeat
    uint16_t dstGap = 0;    // 512-byte blocks skipped after each repeat
    T initValue = T(0);
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeConfig {
    CO2Layout format;
    __aicore__ constexpr FixpipeConfig(CO2Layout formatIn) : format(formatIn) {}
    __aicore__ constexpr FixpipeConfig(CO2Layout formatIn, bool) : format(formatIn) {}
    __aicore__ constexpr FixpipeConfig(CO2Layout formatIn, bool, bool) : format(formatIn) {}
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

#if __NPU_ARCH__ == 3510
// The 950's Fixpipe parameters (CANN's kernel_struct_fixpipe.h, kernel_utils_struct_dma_params.h):
// the output layout is a template argument, and with it the layout's own parameters (`params`).
struct Nz2NdParams {
    __aicore__ Nz2NdParams() {}
    __aicore__ Nz2NdParams(const uint16_t ndNumIn, const uint16_t srcNdStrideIn, const uint32_t dstNdStrideIn)
        : ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn) {}
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint32_t dstNdStride = 0;
};

struct Nz2DnParams {
    __aicore__ Nz2DnParams() {}
    __aicore__ Nz2DnParams(const uint16_t dnNumIn, const uint16_t srcNzMatrixStrideIn, const uint32_t dstDnMatrixStrideIn,
                           const uint16_t srcNzC0StrideIn)
        : dnNum(dnNumIn), srcNzMatrixStride(srcNzMatrixStrideIn), dstDnMatrixStride(dstDnMatrixStrideIn),
          srcNzC0Stride(srcNzC0StrideIn) {}
    uint16_t dnNum = 1;
    uint16_t srcNzMatrixStride = 0;
    uint32_t dstDnMatrixStride = 0;
    uint16_t srcNzC0Stride = 0;
};

template <CO2Layout format>
struct TransformParams {};
template <>
struct TransformParams<CO2Layout::NZ> {
    using PARAMS = uint8_t;
};
template <>
struct TransformParams<CO2Layout::ROW_MAJOR> {
    using PARAMS = Nz2NdParams;
};
template <>
struct TransformParams<CO2Layout::COLUMN_MAJOR> {
    using PARAMS = Nz2DnParams;
};

enum class ReluMode : uint8_t { NO_RELU = 0, NORMAL_RELU, SCALAR_RELU, VECTOR_RELU };
enum class ClipReluMode : uint8_t { NOCLIP_RELU = 0, CLIP_RELU = 1 };

template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
    __aicore__ FixpipeParamsArch3510() {}
    __aicore__ FixpipeParamsArch3510(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                     const uint32_t dstStrideIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    ReluMode preReluMode = ReluMode::NO_RELU;
    ClipReluMode preClipReluMode = ClipReluMode::NOCLIP_RELU;
    uint64_t reluScalar = 0;
    uint64_t vectorRelu = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    uint8_t dualDstCtl = 0;
    bool subBlockId = false;
    typename TransformParams<format>::PARAMS params{};
    bool isChannelSplit = false;
};

template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsC310 : FixpipeParamsArch3510<format> {
    __aicore__ FixpipeParamsC310() : FixpipeParamsArch3510<format>() {}
    __aicore__ FixpipeParamsC310(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn)
        : FixpipeParamsArch3510<format>(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn) {}
};
#endif

struct FixpipeParamsV220 {
    __aicore__ FixpipeParamsV220() {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                                 const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                                 const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn),
          dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn) {}
    __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                                 const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                                 const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                                 const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
        : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                            srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
        isChannelSplit = isChannelSplitIn;
    }

    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;  // rows (of 16 accumulators) between L0C column blocks
    uint32_t dstStride = 0;  // ND: elements per destination row; NZ: 32-byte blocks between column blocks
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;  // units of 16 x 16 accumulators
    uint16_t dstNdStride = 0;  // elements
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

// DataCopy from L0C to GM: the Fixpipe move with its quantization and NZ2ND settings taken from the
// registers SetFixpipePreQuantFlag / SetFixPipeConfig / SetFixpipeNz2ndFlag wrote.
struct DataCopyCO12DstParams {
    __aicore__ DataCopyCO12DstParams() {}
    __aicore__ DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                                     const uint16_t srcStrideIn, const QuantMode_t quantPreIn,
                                     const uint8_t reluPreIn, const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}

    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

constexpr uint64_t kFractalBytes = 512;

// Columns of a fractal row (C0) and elements of a fractal for elements of type T.
template <typename T>
constexpr int64_t c0_of = int64_t(elements_in<T>(32));
template <typename T>
constexpr int64_t fractal_elements = int64_t(elements_in<T>(kFractalBytes));

// Element `index` of an int4 array at `base`, and the writing of one.
inline int32_t nibble_at(const void* base, int64_t index) {
    const auto byte = static_cast<const uint8_t*>(base)[index / 2];
    const int32_t value = (index % 2 == 0 ? byte : byte >> 4) & 0xF;
    return value >= 8 ? value - 16 : value;
}
inline void set_nibble(void* base, int64_t index, int32_t value) {
    auto& byte = static_cast<uint8_t*>(base)[index / 2];
    const auto bits = uint8_t(value & 0xF);
    byte = index % 2 == 0 ? uint8_t((byte & 0xF0) | bits) : uint8_t((byte & 0x0F) | (bits << 4));
}

constexpr int64_t ceil_div(int64_t value, int64_t divisor) { return (value + divisor - 1) / divisor; }

// The cube registers of a core. Per worker thread, like the cube memories: a thread runs one block
// at a time, and like the hardware's they keep what the previous block set.
struct FeatureMap {
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint8_t padList[AscendC::PAD_SIZE] = {0, 0, 0, 0};
};
struct CubeRegisters {
    FeatureMap fmatrix[2];          // FMATRIX_LEFT, FMATRIX_RIGHT
    uint64_t load3d_pad_value = 0;  // the padding element's bits, as SetLoadDataPaddingValue wrote them
    uint32_t load3d_boundary = 0;   // SetLoadDataBoundary: L1 bytes the img2col load may read (0: all)
    AscendC::LoadDataRepeatParam load3d_repeat;
    // The 950's img2col output stride in fractals (the repeat register's dstStride, bits 32..47):
    // LoadData with LoadData3DParamsV2 sets it from its extensions, SetLoadDataRepeatWithStride
    // from its argument; LoadDataWithStride and the LoadData3DParamsV2Pro form use it as it is.
    uint16_t load3d_dst_stride = 0;
    uint64_t quant_pre = 0;             // SetFixpipePreQuantFlag: the scalar quantization word
    const uint64_t* quant_vector = nullptr;  // SetFixPipeConfig: one quantization word per output column
    uint32_t quant_vector_length = 0;
    bool relu_vector = false;
    bool hf32 = false;              // SetHF32Mode: Mmad rounds float inputs to HF32 first
    bool hf32_ties_away = false;    // SetHF32TransMode: ties round away from zero (else to even)
    uint16_t nd_num = 1;  // SetFixpipeNz2ndFlag
    uint16_t src_nd_stride = 0;
    uint32_t dst_nd_stride = 0;
    // The cube's index buffer of MmadWithSparse (a quarter of L0B): the 128-byte index fractal of
    // the L0B fractal at byte offset o lives at o / 4.
    uint8_t sparse_index[AscendC::L0B_BYTES / 4] = {};
};

inline CubeRegisters& cube_registers() {
    thread_local CubeRegisters registers;
    return registers;
}

// A local tensor's start must be `alignment`-byte aligned within its memory, as the cube
// instructions address their operands in those units.
template <typename T>
inline void require_alignment(const AscendC::LocalTensor<T>& tensor, uint64_t alignment, const char* api,
                              const char* role) {
    const LocalMemory memory = local_memory(tensor.memory());
    const auto offset = uint64_t(reinterpret_cast<const std::byte*>(tensor.landed_address()) - memory.base);
    if (memory.base != nullptr && offset % alignment != 0) [[unlikely]] {
        fail_misuse(api, role, " starts at byte ", offset, " of ", AscendC::HardwareName(tensor.memory()),
                    "; this instruction needs it ", alignment, "-byte aligned");
    }
}

// `count` elements from the start of `tensor` must lie inside its physical buffer (for writes the
// hardware makes past a tensor's declared length).
template <typename T>
inline void require_in_buffer(const AscendC::LocalTensor<T>& tensor, int64_t count, const char* api,
                              const char* role) {
    const LocalMemory memory = local_memory(tensor.memory());
    const auto offset = uint64_t(reinterpret_cast<const std::byte*>(tensor.landed_address()) - memory.base);
    if (count < 0 || offset + bytes_of<T>(uint64_t(count)) > memory.bytes) [[unlikely]] {
        fail_misuse(api, count, " elements of ", role, " from byte ", offset, " pass the end of the ", memory.bytes,
                    "-byte ", AscendC::HardwareName(tensor.memory()));
    }
}

template <typename T>
inline T bits_as(uint64_t bits) {
    T value;
    std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));
    return value;
}

}  // namespace canopy::kernel::ascendc
