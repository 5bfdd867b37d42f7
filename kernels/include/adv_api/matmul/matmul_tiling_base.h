#pragma once
// The host side of the Matmul: matmul_tiling::MatmulApiTilingBase, the settings every Matmul tiling
// is computed from (positions, formats and types of A, B, C and the bias; the shapes; the buffer
// space; fixed base blocks; the traversal), and the part of the computation the single-core,
// multi-core and batch tilings share: the base block (baseM x baseN x baseK, in L0A / L0B / L0C)
// and the L1 depths (stepM / stepN / stepKa / stepKb, depthA1 / depthB1) for one core's
// singleCoreM x singleCoreN x singleCoreK.
//
// Canopy's algorithm (its own, in the spirit of CANN's: the largest base block the L0 buffers hold
// double-buffered, then as many K steps in L1 as fit double-buffered):
//   - baseM / baseN: the core's M / N rounded up to 16, at most 128 / 256, shrunk (the larger one
//     first) until baseM x baseN accumulators fit L0C;
//   - baseK: the largest multiple of the K alignment (16 elements; 32 for int8, 64 for int4) whose
//     A and B blocks fit half of L0A and half of L0B, at most the core's K rounded up;
//   - stepM = stepN = 1, stepKa = stepKb: the most K blocks (up to 4) whose double buffers of A
//     and B (and the bias row) fit half of L1; depthA1 = 2 stepKa, depthB1 = 2 stepKb when
//     they fit twice, else stepKa and stepKb;
//   - dbL0A = dbL0B = 2, dbL0C = 2 when two accumulator blocks fit L0C, else 1.
// The kernel side (adv_api/matmul/matmul_impl.h) checks the same limits on whatever tiling it
// receives.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>  // the samples print with std::cout after including only the tiling API
#include <limits>
#include <map>

#include "adv_api/matmul/kernel_cube_tiling.h"
#include "adv_api/matmul/matmul_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;
constexpr int32_t BITS_PER_BYTE = 8;

enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT8 = 4,
    DT_INT32 = 3,
    DT_INT64 = 9,
    DT_UINT32 = 8,
    DT_UINT64 = 10,
    DT_BOOL = 12,
    DT_DOUBLE = 11,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_BFLOAT16 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E4M3FN = 35,
    DT_FLOAT8_E5M2 = 36,
    DT_FLOAT4_E2M1 = 37,
    DT_FLOAT8_E8M0 = 38,
    DT_FLOAT4_E1M2 = 39,
    DT_MAX = 40,
};

const std::map<DataType, uint32_t> DTYPE_BYTE_TAB = {
    {DataType::DT_FLOAT, 4},    {DataType::DT_FLOAT16, 2},       {DataType::DT_INT8, 1},
    {DataType::DT_INT16, 2},    {DataType::DT_UINT16, 2},        {DataType::DT_UINT8, 1},
    {DataType::DT_INT32, 4},    {DataType::DT_INT64, 8},         {DataType::DT_UINT32, 4},
    {DataType::DT_UINT64, 8},   {DataType::DT_BF16, 2},          {DataType::DT_BFLOAT16, 2},
    {DataType::DT_INT4, 1},     {DataType::DT_FLOAT4_E2M1, 1},   {DataType::DT_FLOAT4_E1M2, 1},
    {DataType::DT_HIFLOAT8, 1}, {DataType::DT_FLOAT8_E4M3FN, 1}, {DataType::DT_FLOAT8_E5M2, 1},
    {DataType::DT_FLOAT8_E8M0, 1}};
const std::map<DataType, uint32_t> DTYPE_BIT_TAB = {
    {DataType::DT_FLOAT, 32},   {DataType::DT_FLOAT16, 16},      {DataType::DT_INT8, 8},
    {DataType::DT_INT16, 16},   {DataType::DT_UINT16, 16},       {DataType::DT_UINT8, 8},
    {DataType::DT_INT32, 32},   {DataType::DT_INT64, 64},        {DataType::DT_UINT32, 32},
    {DataType::DT_UINT64, 64},  {DataType::DT_BF16, 16},         {DataType::DT_BFLOAT16, 16},
    {DataType::DT_INT4, 4},     {DataType::DT_FLOAT4_E2M1, 4},   {DataType::DT_FLOAT4_E1M2, 4},
    {DataType::DT_HIFLOAT8, 8}, {DataType::DT_FLOAT8_E4M3FN, 8}, {DataType::DT_FLOAT8_E5M2, 8},
    {DataType::DT_FLOAT8_E8M0, 8}};

enum class TPosition : int32_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };

enum class CubeFormat : int32_t {
    ND = 0,
    NZ,
    ZN,
    ZZ,
    NN,
    ND_ALIGN,
    SCALAR,
    VECTOR,
    ROW_MAJOR = ND,
    COLUMN_MAJOR = 8,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};

struct MatTilingType {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_FLOAT;
    bool isTrans = false;
    bool isDB = false;
    bool hasSetScaleType = false;
    TPosition scalePos = TPosition::GM;
    CubeFormat scaleType = CubeFormat::ND;
    bool isScaleTrans = false;
};

struct BufferPool {
    int32_t l1Size = 0;
    int32_t l0CSize = 0;
    int32_t ubSize = 0;
    int32_t l0ASize = 0;
    int32_t l0BSize = 0;
    int32_t btSize = 0;
    int32_t l1AlignSize = 0;
    int32_t l0CAlignSize = 0;
    int32_t l0AAlignSize = 0;
    int32_t l0BAlignSize = 0;
    int32_t ubAlignSize = 0;
};

struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

namespace detail {

inline int32_t ceil_div(int64_t value, int64_t divisor) { return int32_t((value + divisor - 1) / divisor); }
inline int32_t align_up(int64_t value, int64_t alignment) { return int32_t(ceil_div(value, alignment) * alignment); }

// Bits of an element of `type` (0 for a type the cube does not take).
inline int32_t bits_of(DataType type) {
    const auto found = DTYPE_BIT_TAB.find(type);
    return found == DTYPE_BIT_TAB.end() ? 0 : int32_t(found->second);
}

// Bytes of `count` elements of `type` (int4: two to a byte).
inline int64_t bytes_of(DataType type, int64_t count) { return (count * bits_of(type) + 7) / 8; }

// The K alignment of a base block: one fractal row of 32 bytes, at least 16 elements.
inline int32_t k_alignment(DataType type) {
    const int32_t bits = bits_of(type);
    if (bits == 0) return 16;
    return std::max<int32_t>(16, 32 * 8 / bits);
}

// The accumulator bytes of L0C for inputs of `type`: int32 for the integer inputs, float otherwise.
inline int32_t accumulator_bytes(DataType) { return 4; }

}  // namespace detail

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() { InitPlatform(); }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
        InitPlatform();
        uint64_t size = 0;
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, size);
        oriBufferPool_.l1Size = int32_t(size);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, size);
        oriBufferPool_.l0CSize = int32_t(size);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, size);
        oriBufferPool_.ubSize = int32_t(size);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, size);
        oriBufferPool_.l0ASize = int32_t(size);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, size);
        oriBufferPool_.l0BSize = int32_t(size);
        ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::BT, size);
        oriBufferPool_.btSize = int32_t(size);
        socVersion = ascendcPlatform.GetSocVersion();
        bufferPool_ = oriBufferPool_;
        blockDim = int32_t(ascendcPlatform.GetCoreNumAic());
    }
    explicit MatmulApiTilingBase(const PlatformInfo& platform) {
        InitPlatform();
        socVersion = platform.socVersion;
        if (platform.l1Size != 0) oriBufferPool_.l1Size = int32_t(platform.l1Size);
        if (platform.l0CSize != 0) oriBufferPool_.l0CSize = int32_t(platform.l0CSize);
        if (platform.ubSize != 0) oriBufferPool_.ubSize = int32_t(platform.ubSize);
        if (platform.l0ASize != 0) oriBufferPool_.l0ASize = int32_t(platform.l0ASize);
        if (platform.l0BSize != 0) oriBufferPool_.l0BSize = int32_t(platform.l0BSize);
        bufferPool_ = oriBufferPool_;
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        aType_.pos = pos;
        aType_.type = type;
        aType_.dataType = dataType;
        aType_.isTrans = isTrans;
        aTypeSet_ = true;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        bType_.pos = pos;
        bType_.type = type;
        bType_.dataType = dataType;
        bType_.isTrans = isTrans;
        bTypeSet_ = true;
        return 0;
    }
    int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false) {
        aType_.hasSetScaleType = true;
        aType_.scalePos = scalePos;
        aType_.scaleType = scaleType;
        aType_.isScaleTrans = isScaleTrans;
        return 0;
    }
    int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true) {
        bType_.hasSetScaleType = true;
        bType_.scalePos = scalePos;
        bType_.scaleType = scaleType;
        bType_.isScaleTrans = isScaleTrans;
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        cType_.pos = pos;
        cType_.type = type;
        cType_.dataType = dataType;
        cTypeSet_ = true;
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        biasType_.pos = pos;
        biasType_.type = type;
        biasType_.dataType = dataType;
        return 0;
    }
    int32_t SetDequantType(DequantType dequantType) {
        deqType = dequantType;
        return 0;
    }
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        if (m <= 0 && m != -1) return -1;
        if (n <= 0 && n != -1) return -1;
        if (k <= 0 && k != -1) return -1;
        singleM = m;
        singleN = n;
        singleK = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
        return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
        if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
        orgM = orgMIn;
        orgN = orgNIn;
        orgKa = orgKaIn;
        orgKb = orgKbIn;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        aLayoutInfoB = b, aLayoutInfoS = s, aLayoutInfoN = n, aLayoutInfoG = g, aLayoutInfoD = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        bLayoutInfoB = b, bLayoutInfoS = s, bLayoutInfoN = n, bLayoutInfoG = g, bLayoutInfoD = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        cLayoutInfoB = b, cLayoutInfoS1 = s, cLayoutInfoN = n, cLayoutInfoG = g, cLayoutInfoS2 = d;
        return 0;
    }
    // The NORMAL (BMNK) batch layout: batchA / batchB matrices of m x k and k x n.
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0) return -1;
        SetALayout(batchA, m, 1, 1, k);
        SetBLayout(batchB, k, 1, 1, n);
        SetCLayout(std::max(batchA, batchB), m, 1, 1, n);
        isBMNKBmm = true;
        return 0;
    }
    int32_t SetBatchNum(int32_t batch) {
        if (batch <= 0) return -1;
        batchNum = batch;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false) {
        isBias = isBiasIn;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        if ((baseMIn != -1 && (baseMIn <= 0 || baseMIn % 16 != 0)) ||
            (baseNIn != -1 && (baseNIn <= 0 || baseNIn % 16 != 0)) || (baseKIn != -1 && baseKIn <= 0)) {
            return -1;
        }
        fixBaseM_ = baseMIn;
        fixBaseN_ = baseNIn;
        fixBaseK_ = baseKIn;
        return 0;
    }
    // Buffer space the Matmul may use (-1: the whole memory).
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        if ((l1Size != -1 && (l1Size <= 0 || l1Size > oriBufferPool_.l1Size)) ||
            (l0CSize != -1 && (l0CSize <= 0 || l0CSize > oriBufferPool_.l0CSize)) ||
            (ubSize != -1 && (ubSize < 0 || ubSize > oriBufferPool_.ubSize)) ||
            (btSize != -1 && (btSize < 0 || btSize > oriBufferPool_.btSize))) {
            return -1;
        }
        bufferPool_.l1Size = l1Size == -1 ? oriBufferPool_.l1Size : l1Size;
        bufferPool_.l0CSize = l0CSize == -1 ? oriBufferPool_.l0CSize : l0CSize;
        bufferPool_.ubSize = ubSize == -1 ? oriBufferPool_.ubSize : ubSize;
        bufferPool_.btSize = btSize == -1 ? oriBufferPool_.btSize : btSize;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) {
        if (traverse != MatrixTraverse::FIRSTM && traverse != MatrixTraverse::FIRSTN) return -1;
        traverse_ = traverse;
        return 0;
    }
    int32_t SetMadType(MatrixMadType madType) {
        madType_ = madType;
        return 0;
    }
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1) {
        adjust_ = {maxBaseM, maxBaseN, maxBaseK, minBaseM, minBaseN, minBaseK};
        return 0;
    }
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
        aType_.isDB = a;
        bType_.isDB = b;
        cType_.isDB = c;
        biasType_.isDB = bias;
        transND2NZ_ = transND2NZ;
        transNZ2ND_ = transNZ2ND;
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        mmConfigType = mmConfigTypeIn;
        enableL1CacheUB = enableL1CacheUBIn;
        scheduleType = scheduleTypeIn;
        if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
        enVecND2NZ = enVecND2NZIn;
    }
    void SetMatmulConfigParams(const MatmulConfigParams& configParams) {
        SetMatmulConfigParams(configParams.mmConfigType, configParams.enableL1CacheUB, configParams.scheduleType,
                              configParams.traverse, configParams.enVecND2NZ);
    }
    int32_t SetSparse(bool isSparseIn = false) {
        isSparse_ = isSparseIn;
        return 0;
    }
    int32_t GetBaseM() const { return baseM; }
    int32_t GetBaseN() const { return baseN; }
    int32_t GetBaseK() const { return baseK; }

    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
    virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;

public:
    optiling::TCubeTiling tiling_;
    MatTilingType aType_;
    MatTilingType bType_;
    MatTilingType cType_;
    MatTilingType biasType_;
    bool isBias = false;
    bool isSupportL0c2Out = true;
    int32_t blockDim = 0;
    int32_t orgM = 0;
    int32_t orgN = 0;
    int32_t orgKa = 0;
    int32_t orgKb = 0;
    int32_t aLayoutInfoB = 0;
    int32_t aLayoutInfoS = 0;
    int32_t aLayoutInfoN = 0;
    int32_t aLayoutInfoG = 0;
    int32_t aLayoutInfoD = 0;
    int32_t bLayoutInfoB = 0;
    int32_t bLayoutInfoS = 0;
    int32_t bLayoutInfoN = 0;
    int32_t bLayoutInfoG = 0;
    int32_t bLayoutInfoD = 0;
    int32_t cLayoutInfoB = 0;
    int32_t cLayoutInfoS1 = 0;
    int32_t cLayoutInfoN = 0;
    int32_t cLayoutInfoG = 0;
    int32_t cLayoutInfoS2 = 0;
    int32_t batchNum = 0;
    int32_t singleM = 0;
    int32_t singleN = 0;
    int32_t singleK = 0;
    int32_t singleCoreM = 0;
    int32_t singleCoreN = 0;
    int32_t singleCoreK = 0;
    int32_t baseM = 0;
    int32_t baseN = 0;
    int32_t baseK = 0;
    int32_t batchM = 0;
    int32_t batchN = 0;
    int32_t singleBatchM = 0;
    int32_t singleBatchN = 0;
    int32_t alignSingleM = 1;
    int32_t alignSingleN = 1;
    int32_t alignSingleK = 1;
    struct MnmAdjust {
        int32_t maxBaseM;
        int32_t maxBaseN;
        int32_t maxBaseK;
        int32_t minBaseM;
        int32_t minBaseN;
        int32_t minBaseK;
    } adjust_ = {-1, -1, -1, -1, -1, -1};
    BufferPool oriBufferPool_;
    BufferPool bufferPool_;
    MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool transND2NZ_ = false;
    bool transNZ2ND_ = false;
    bool isSparse_ = false;
    int32_t maxSingleM = 0;
    int32_t maxSingleN = 0;
    int32_t maxSingleK = 0;
    int32_t minSingleM = 0;
    int32_t minSingleN = 0;
    int32_t minSingleK = 0;
    DequantType deqType = DequantType::SCALAR;
    bool enableSplitK_ = false;
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    int32_t mmConfigType = 1;  // 0: Norm; 1: MDL
    bool enableL1CacheUB = false;
    bool enVecND2NZ = false;
    bool isBMNKBmm = false;

protected:
    virtual int64_t Compute() = 0;

    void InitPlatform() {
        // The modelled SoC's part (canopy/soc.h), as PlatformAscendC answers for it.
        const canopy::soc::Part& part = canopy::soc::modelled_part();
        oriBufferPool_.l1Size = int32_t(part.l1_bytes);
        oriBufferPool_.l0CSize = int32_t(part.l0c_bytes);
        oriBufferPool_.ubSize = int32_t(part.ub_bytes);
        oriBufferPool_.l0ASize = int32_t(part.l0a_bytes);
        oriBufferPool_.l0BSize = int32_t(part.l0b_bytes);
        oriBufferPool_.btSize = int32_t(part.bias_table_bytes);
        bufferPool_ = oriBufferPool_;
        blockDim = int32_t(canopy::soc::modelled().cube_cores);
    }

    // The settings a tiling needs: types and shapes. Fills singleM/N/K from the original shape
    // when SetShape left them unset, and the original shape from the single one likewise.
    bool CheckSetParam() {
        if (!aTypeSet_ || !bTypeSet_ || !cTypeSet_) {
            Report("SetAType, SetBType and SetCType must be called before GetTiling");
            return false;
        }
        if (detail::bits_of(aType_.dataType) == 0 || detail::bits_of(bType_.dataType) == 0) {
            Report("A and B must have a data type the cube takes");
            return false;
        }
        if (singleM <= 0) singleM = orgM;
        if (singleN <= 0) singleN = orgN;
        if (singleK <= 0) singleK = std::max(orgKa, orgKb);
        if (orgM <= 0) orgM = singleM;
        if (orgN <= 0) orgN = singleN;
        if (orgKa <= 0) orgKa = singleK;
        if (orgKb <= 0) orgKb = singleK;
        if (singleM <= 0 || singleN <= 0 || singleK <= 0) {
            Report("the shape (SetShape / SetOrgShape) must be positive");
            return false;
        }
        // The tiling's fields are 32-bit: a dimension must still fit once aligned to a block.
        constexpr int64_t largest = std::numeric_limits<int32_t>::max() - 64;
        for (const int64_t dimension : {int64_t(orgM), int64_t(orgN), int64_t(orgKa), int64_t(orgKb)}) {
            if (dimension > largest) {
                Report("a dimension of the shape exceeds 2147483583, which the tiling's 32-bit fields cannot hold "
                       "aligned");
                return false;
            }
        }
        if (singleM > orgM || singleN > orgN || singleK > std::max(orgKa, orgKb)) {
            Report("the shape (SetShape) exceeds the original shape (SetOrgShape)");
            return false;
        }
        return true;
    }

    // The base block and the L1 depths for one core's singleCoreM x singleCoreN x singleCoreK.
    bool ComputeBlocks() {
        const DataType a = aType_.dataType, b = bType_.dataType;
        const int32_t accumulator = detail::accumulator_bytes(a);
        const int32_t kAlign = std::max(detail::k_alignment(a), detail::k_alignment(b));
        const int32_t l0a = bufferPool_.l0ASize, l0b = bufferPool_.l0BSize, l0c = bufferPool_.l0CSize;
        const int32_t maxM = adjust_.maxBaseM > 0 ? adjust_.maxBaseM : 128;
        const int32_t maxN = adjust_.maxBaseN > 0 ? adjust_.maxBaseN : 256;
        baseM = fixBaseM_ > 0 ? fixBaseM_ : std::min(detail::align_up(singleCoreM, 16), maxM);
        baseN = fixBaseN_ > 0 ? fixBaseN_ : std::min(detail::align_up(singleCoreN, 16), maxN);
        while (int64_t(baseM) * baseN * accumulator > l0c) {
            if (fixBaseN_ <= 0 && (baseN >= baseM || fixBaseM_ > 0) && baseN > 16) {
                baseN = detail::align_up(baseN / 2, 16);
            } else if (fixBaseM_ <= 0 && baseM > 16) {
                baseM = detail::align_up(baseM / 2, 16);
            } else {
                Report("baseM x baseN does not fit L0C");
                return false;
            }
        }
        const int32_t kLimit = detail::align_up(singleCoreK, kAlign);
        if (fixBaseK_ > 0) {
            baseK = fixBaseK_;
        } else {
            const int64_t byA = int64_t(l0a / 2) * 8 / (int64_t(baseM) * detail::bits_of(a));
            const int64_t byB = int64_t(l0b / 2) * 8 / (int64_t(baseN) * detail::bits_of(b));
            int64_t k = std::min(byA, byB) / kAlign * kAlign;
            if (adjust_.maxBaseK > 0) k = std::min<int64_t>(k, adjust_.maxBaseK / kAlign * kAlign);
            if (k < kAlign) k = kAlign;
            baseK = int32_t(std::min<int64_t>(k, kLimit));
        }
        if (detail::bytes_of(a, int64_t(baseM) * baseK) > l0a || detail::bytes_of(b, int64_t(baseN) * baseK) > l0b) {
            Report("the base block does not fit L0A / L0B");
            return false;
        }
        dbL0A_ = detail::bytes_of(a, int64_t(baseM) * baseK) * 2 <= l0a ? 2 : 1;
        dbL0B_ = detail::bytes_of(b, int64_t(baseN) * baseK) * 2 <= l0b ? 2 : 1;
        dbL0C_ = int64_t(baseM) * baseN * accumulator * 2 <= l0c ? 2 : 1;

        // L1: stepKa = stepKb K blocks of A and of B, double-buffered when they fit twice.
        const int32_t kBlocks = detail::ceil_div(singleCoreK, baseK);
        const int64_t aBlock = detail::bytes_of(a, int64_t(baseM) * baseK);
        const int64_t bBlock = detail::bytes_of(b, int64_t(baseN) * baseK);
        const int64_t bias = isBias ? int64_t(baseN) * 4 : 0;
        const bool aInL1 = aType_.pos == TPosition::TSCM;
        const bool bInL1 = bType_.pos == TPosition::TSCM;
        const int64_t l1 = bufferPool_.l1Size;
        stepM_ = 1;
        stepN_ = 1;
        int32_t step = kBlocks;
        int32_t depth = 2;
        auto l1Bytes = [&](int32_t s, int32_t d) {
            return (aInL1 ? 0 : aBlock * s * d) + (bInL1 ? 0 : bBlock * s * d) + bias;
        };
        // At most 4 K blocks per load and half of L1 per Matmul, as CANN's tilings leave room for
        // a second Matmul object or the kernel's own L1 buffers.
        step = std::min(step, 4);
        const int64_t budget = std::max<int64_t>(l1 / 2, l1Bytes(1, 1));
        while (step > 1 && l1Bytes(step, 2) > budget) --step;
        if (l1Bytes(step, 2) > budget) depth = 1;
        if (l1Bytes(step, depth) > l1) {
            Report("one base block of A and B does not fit L1");
            return false;
        }
        stepKa_ = step;
        stepKb_ = step;
        depthA1_ = step * depth;
        depthB1_ = step * depth;
        shareL1Size_ = int32_t(l1Bytes(step, depth));
        return true;
    }

    template <class Tiling>
    void FillTiling(Tiling& t, int32_t usedCoreNum) const {
        t.usedCoreNum = usedCoreNum;
        t.M = orgM;
        t.N = orgN;
        t.Ka = orgKa;
        t.Kb = orgKb;
        t.singleCoreM = singleCoreM;
        t.singleCoreN = singleCoreN;
        t.singleCoreK = singleCoreK;
        t.baseM = baseM;
        t.baseN = baseN;
        t.baseK = baseK;
        t.depthA1 = depthA1_;
        t.depthB1 = depthB1_;
        t.stepM = stepM_;
        t.stepN = stepN_;
        t.isBias = isBias ? 1 : 0;
        // UB the Matmul needs for a C block it moves through the UB.
        const bool cInUb = cType_.pos == TPosition::VECCALC || cType_.pos == TPosition::VECIN ||
                           cType_.pos == TPosition::VECOUT;
        t.transLength = cInUb ? int32_t(int64_t(baseM) * baseN * 4) : 0;
        t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        t.shareMode = 0;
        t.shareL1Size = shareL1Size_;
        t.shareL0CSize = int32_t(int64_t(baseM) * baseN * 4);
        t.shareUbSize = 0;
        t.batchM = batchM;
        t.batchN = batchN;
        t.singleBatchM = singleBatchM;
        t.singleBatchN = singleBatchN;
        t.stepKa = stepKa_;
        t.stepKb = stepKb_;
        t.depthAL1CacheUB = 0;
        t.depthBL1CacheUB = 0;
        t.dbL0A = dbL0A_;
        t.dbL0B = dbL0B_;
        t.dbL0C = dbL0C_;
        t.ALayoutInfoB = aLayoutInfoB;
        t.ALayoutInfoS = aLayoutInfoS;
        t.ALayoutInfoN = aLayoutInfoN;
        t.ALayoutInfoG = aLayoutInfoG;
        t.ALayoutInfoD = aLayoutInfoD;
        t.BLayoutInfoB = bLayoutInfoB;
        t.BLayoutInfoS = bLayoutInfoS;
        t.BLayoutInfoN = bLayoutInfoN;
        t.BLayoutInfoG = bLayoutInfoG;
        t.BLayoutInfoD = bLayoutInfoD;
        t.CLayoutInfoB = cLayoutInfoB;
        t.CLayoutInfoS1 = cLayoutInfoS1;
        t.CLayoutInfoN = cLayoutInfoN;
        t.CLayoutInfoG = cLayoutInfoG;
        t.CLayoutInfoS2 = cLayoutInfoS2;
        t.BatchNum = batchNum;
        t.mxTypePara = 0;
    }

    void SetFinalTiling(optiling::TCubeTiling& tiling) { FillTiling(tiling, usedCoreNum_); }
    void SetFinalTiling(AscendC::tiling::TCubeTiling& tiling) { FillTiling(tiling, usedCoreNum_); }

    template <class Tiling>
    int64_t Finish(Tiling& tiling) {
        if (Compute() != 0) return -1;
        SetFinalTiling(tiling);
        SetFinalTiling(tiling_);
        return 0;
    }

    void Report(const char* why) const { std::fprintf(stderr, "[ERROR] matmul tiling: %s\n", why); }

    bool aTypeSet_ = false, bTypeSet_ = false, cTypeSet_ = false;
    int32_t fixBaseM_ = -1, fixBaseN_ = -1, fixBaseK_ = -1;
    int32_t stepM_ = 1, stepN_ = 1, stepKa_ = 1, stepKb_ = 1, depthA1_ = 1, depthB1_ = 1;
    int32_t dbL0A_ = 2, dbL0B_ = 2, dbL0C_ = 1;
    int32_t shareL1Size_ = 0;
    int32_t usedCoreNum_ = 1;
};

}  // namespace matmul_tiling
