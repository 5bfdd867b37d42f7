#pragma once
// The Matmul's compile-time vocabulary (CANN's matmul_config.h and tiling.h): CubeFormat,
// LayoutMode, MatmulConfig with its presets (CFG_NORM, CFG_MDL, CFG_IBSHARE_NORM, MM_CFG_BB, ...),
// GetMMConfig, MatmulApiStaticTiling, MatmulType and MatmulCallBackFunc. Field names, orders and
// defaults follow CANN; the presets are built by assignment so that they compile as C++17.
#include <cstdint>

#include "adv_api/matmul/kernel_cube_tiling.h"
#include "basic_api/kernel_basic_intf.h"

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

enum class CubeFormat {
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

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };

enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };

#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif

enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };

enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001,
    ITERATE_MODE_ALL = 0b00000010,
    ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000,
    ITERATE_MODE_DEFAULT = 0b11111111,
};

enum class DecompressionMode {
    DECOMP_NONE = 0b0000,
    DECOMP_2bitTo8bit = 0b0001,
    DECOMP_3bitTo8bit = 0b0010,
    DECOMP_4bitTo8bit = 0b0011,
    DECOMP_16bitTo64bit = 0b100,
    DECOMP_1bitTo8bit = 0b0101,
    DECOMP_1bitTo4bit = 0b0110,
    DECOMP_2bitTo4bit = 0b0111,
    DECOMP_3bitTo4bit = 0b1000,
};

struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
    bool doSpecialBasicBlock;
    uint32_t doMTE2Preload;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t stepM;
    uint32_t stepN;
    uint32_t baseMN;
    uint32_t singleCoreMN;
    bool enUnitFlag = true;
    bool isPerTensor;
    bool hasAntiQuantOffset;
    bool doIBShareNorm;
    bool doSpecialMDL;
    bool enableInit = true;
    BatchMode batchMode;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse;
    bool enableL1CacheUB;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType;
    bool enableDoubleCache;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
};
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
    bool enableSetBias = true;
};
struct MatrixOffset {
    int32_t offset;
    int32_t row;
    int32_t col;
    int32_t height;
    int32_t width;
};

namespace canopy::kernel::matmul {

// Every field of a MatmulConfig at its neutral value; the presets change what they configure.
__aicore__ constexpr MatmulConfig BaseConfig() {
    MatmulConfig c{};
    c.doNorm = false;
    c.doBasicBlock = false;
    c.doMultiDataLoad = false;
    c.basicM = 0;
    c.basicN = 0;
    c.basicK = 0;
    c.intrinsicsCheck = false;
    c.isNBatch = false;
    c.enVecND2NZ = false;
    c.doSpecialBasicBlock = false;
    c.doMTE2Preload = 0;
    c.singleCoreM = 0;
    c.singleCoreN = 0;
    c.singleCoreK = 0;
    c.stepM = 0;
    c.stepN = 0;
    c.baseMN = 0;
    c.singleCoreMN = 0;
    c.enUnitFlag = false;
    c.isPerTensor = false;
    c.hasAntiQuantOffset = false;
    c.doIBShareNorm = false;
    c.doSpecialMDL = false;
    c.enableInit = true;
    c.batchMode = BatchMode::NONE;
    c.enableEnd = true;
    c.enableGetTensorC = true;
    c.enableSetOrgShape = true;
    c.enableSetBias = true;
    c.enableSetTail = true;
    c.enableQuantVector = true;
    c.enableSetDefineData = true;
    c.iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    c.enableReuse = true;
    c.enableUBReuse = true;
    c.enableL1CacheUB = false;
    c.intraBlockPartSum = false;
    c.iterateOrder = IterateOrder::UNDEF;
    c.scheduleType = ScheduleType::INNER_PRODUCT;
    c.enableDoubleCache = false;
    c.isBiasBatch = true;
    c.enableStaticPadZeros = false;
    c.isPartialOutput = false;
    c.enableMixDualMaster = false;
    c.isA2B2Shared = false;
    c.isEnableChannelSplit = false;
    c.enableKdimReorderLoad = false;
    c.isCO1Shared = false;
    c.sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    c.bmmOutMode = BatchOutMode::SINGLE_BATCH;
    c.enableL1BankConflictOptimise = false;
    c.enableRelu = false;
    c.decompMode = DecompressionMode::DECOMP_NONE;
    return c;
}

}  // namespace canopy::kernel::matmul

__aicore__ constexpr MatmulConfig GetNormalConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false, const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, const bool isMsgReuse = true,
    const IterateOrder iterateOrder = IterateOrder::UNDEF, const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
    const bool enUnitFlag = true, const bool enableMixDualMaster = false,
    const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c = canopy::kernel::matmul::BaseConfig();
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}

__aicore__ constexpr MatmulConfig GetMDLConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false, const uint32_t doMTE2Preload = 0,
    const bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
    const bool enUnitFlag = false, const bool isMsgReuse = true, const bool enableUBReuse = true,
    const bool enableL1CacheUB = false, const bool enableMixDualMaster = false,
    const bool enableKdimReorderLoad = false, const bool enableL1BankConflictOptimise = false) {
    MatmulConfig c = canopy::kernel::matmul::BaseConfig();
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
    return c;
}

__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                      const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                                      bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c = canopy::kernel::matmul::BaseConfig();
    c.doSpecialMDL = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    return c;
}

__aicore__ constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                                 const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                 const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = canopy::kernel::matmul::BaseConfig();
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.batchMode = bmmMode;
    return c;
}

__aicore__ constexpr MatmulConfig GetSpecialBasicConfig(const uint32_t basicM, const uint32_t basicN,
                                                        const uint32_t basicK, const uint32_t singleCoreM,
                                                        const uint32_t singleCoreN, const uint32_t singleCoreK,
                                                        const uint32_t stepM, const uint32_t stepN,
                                                        const bool intrinsicsLimit = false,
                                                        const bool batchLoop = false,
                                                        const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
    c.doBasicBlock = false;
    c.doSpecialBasicBlock = true;
    c.singleCoreM = singleCoreM;
    c.singleCoreN = singleCoreN;
    c.singleCoreK = singleCoreK;
    c.stepM = stepM;
    c.stepN = stepN;
    c.baseMN = basicM * basicN;
    c.singleCoreMN = singleCoreM * singleCoreN;
    return c;
}

__aicore__ constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                       const bool isVecND2NZ = false,
                                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                       const bool isDoubleCache = false, const bool enUnitFlag = true) {
    MatmulConfig c = canopy::kernel::matmul::BaseConfig();
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

namespace canopy::kernel::matmul {

__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulQuantParams& p) {
    c.isPerTensor = p.isPerTensor;
    c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulBatchParams& p) {
    c.isNBatch = p.isNBatch;
    c.batchMode = p.batchMode;
    c.isBiasBatch = p.isBiasBatch;
    c.bmmOutMode = p.bmmOutMode;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulFuncParams& p) {
    c.intrinsicsCheck = p.intrinsicsCheck;
    c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload;
    c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType;
    c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
    c.enableRelu = p.enableRelu;
    c.decompMode = p.decompMode;
}
__aicore__ constexpr void Apply(MatmulConfig& c, const MatmulBiasParams& p) { c.enableSetBias = p.enableSetBias; }

}  // namespace canopy::kernel::matmul

template <MatmulConfigMode configMode, typename... ArgTypes>
__aicore__ inline constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig mmConfig = CFG_NORM;
    if constexpr (configMode == MatmulConfigMode::CONFIG_MDL) {
        mmConfig = CFG_MDL;
    } else if constexpr (configMode == MatmulConfigMode::CONFIG_SPECIALMDL) {
        mmConfig = GetSpecialMDLConfig();
    } else if constexpr (configMode == MatmulConfigMode::CONFIG_IBSHARE) {
        mmConfig = CFG_IBSHARE_NORM;
    }
    (canopy::kernel::matmul::Apply(mmConfig, args), ...);
    return mmConfig;
}

// A tiling fixed at compile time (MatmulConfig plus the TCubeTiling fields; -1: not fixed).
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1;
    int32_t N = -1;
    int32_t Ka = -1;
    int32_t Kb = -1;
    int32_t singleCoreM = -1;
    int32_t singleCoreN = -1;
    int32_t singleCoreK = -1;
    int32_t baseM = -1;
    int32_t baseN = -1;
    int32_t baseK = -1;
    int32_t depthA1 = -1;
    int32_t depthB1 = -1;
    int32_t stepM = -1;
    int32_t stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1;
    int32_t shareL0CSize = -1;
    int32_t shareUbSize = -1;
    int32_t stepKa = -1;
    int32_t stepKb = -1;
    int32_t depthAL1CacheUB = -1;
    int32_t depthBL1CacheUB = -1;
    int32_t dbL0A = -1;
    int32_t dbL0B = -1;
    int32_t dbL0C = -1;
    int32_t ALayoutInfoB = -1;
    int32_t ALayoutInfoS = -1;
    int32_t ALayoutInfoN = -1;
    int32_t ALayoutInfoG = -1;
    int32_t ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1;
    int32_t BLayoutInfoS = -1;
    int32_t BLayoutInfoN = -1;
    int32_t BLayoutInfoG = -1;
    int32_t BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1;
    int32_t CLayoutInfoS1 = -1;
    int32_t CLayoutInfoN = -1;
    int32_t CLayoutInfoG = -1;
    int32_t CLayoutInfoS2 = -1;
    int32_t BatchNum = -1;
    int32_t mxTypePara = -1;
    MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

template <void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                              const void* dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
    constexpr static void (*DataCopyOutPtr)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                            const void* dataCopyOutParams, const uint64_t tilingPtr,
                                            const uint64_t dataPtr) = DataCopyOut;
    constexpr static void (*CopyA1Ptr)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                                       int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyA1;
    constexpr static void (*CopyB1Ptr)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                                       int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyB1;
};

}  // namespace AscendC
