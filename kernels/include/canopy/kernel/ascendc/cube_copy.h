#pragma once
// The cube path's other moves: Fill / InitConstValue (a constant into L1, L0A or L0B, by 32- or
// 512-byte blocks) and DataCopy from L1 into the bias table (C2, 64-byte units, half widened to
// float) and the fixpipe buffer (C2PIPE2GM, 128-byte units), which data_copy.h's local-to-local
// DataCopy hands over to copy_into_cube_buffer.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/cube_types.h"
#include "canopy/kernel/ascendc/data_copy.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace canopy::kernel::ascendc {

template <typename T, typename U>
inline void copy_into_cube_buffer(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                                  const AscendC::DataCopyParams& p) {
    using AscendC::Hardware;
    const char* api = "DataCopy";
    require_memory(src, Hardware::L1, api, "src");
    const bool bias = dst.memory() == Hardware::BIAS;
    if (bias) {
        constexpr bool widens = std::is_same_v<U, half> && std::is_same_v<T, float>;
        static_assert(std::is_same_v<T, U> || std::is_same_v<U, half>,
                      "L1 -> bias table copies keep the type or widen half to float");
        if constexpr (!std::is_same_v<T, U>) static_assert(widens, "half widens to float only");
        if (!(std::is_same_v<T, float> || std::is_same_v<T, int32_t>)) [[unlikely]] {
            fail_misuse(api, "the bias table holds float or int32_t; dst has ", sizeof(T), "-byte elements");
        }
        require_alignment(dst, 64, api, "dst");
    } else {
        if (!std::is_same_v<T, U>) [[unlikely]] {
            fail_misuse(api, "L1 -> fixpipe buffer copies keep the element type (", sizeof(U), "-byte src, ",
                        sizeof(T), "-byte dst)");
        }
        require_alignment(dst, 128, api, "dst");
    }
    require_alignment(src, 32, api, "src");
    if (p.blockCount == 0 || p.blockLen == 0) return;
    // A burst's length counts 64 (bias table) or 128 (fixpipe buffer) bytes of the source, the
    // destination gaps as many bytes of the destination: a half bias widened to float fills twice the
    // bytes it reads (catlass's CopyL1ToBT sizes its bursts by the source's 64-byte units), and the
    // destination burst has as many elements.
    const uint64_t unit = bias ? 64 : 128;
    const uint64_t dst_burst = uint64_t(p.blockLen) * unit / sizeof(U);
    const uint64_t src_advance = bias ? dst_burst + uint64_t(p.srcGap) * 32 / sizeof(U) : uint64_t(p.srcGap) * 32 / sizeof(U);
    const uint64_t dst_advance = bias ? dst_burst + uint64_t(p.dstGap) * unit / sizeof(T) : uint64_t(p.dstGap) * unit / sizeof(T);
    if (!bias && p.blockCount > 1 && (src_advance == 0 || dst_advance == 0)) [[unlikely]] {
        fail_misuse(api, "L1 -> fixpipe buffer: srcGap and dstGap are head-to-head distances and must be "
                         "non-zero for blockCount ", p.blockCount);
    }
    const uint64_t last = p.blockCount - 1;
    require_elements(src, int64_t(last * src_advance + dst_burst), api, "src (elements read)");
    require_elements(dst, int64_t(last * dst_advance + dst_burst), api, "dst (elements written)");
    issue(bias ? Pipe::MTE1 : Pipe::FIX, api, reads(src, (last * src_advance + dst_burst) * sizeof(U)),
          writes(dst, (last * dst_advance + dst_burst) * sizeof(T)));
    for (uint64_t burst = 0; burst < p.blockCount; ++burst) {
        const U* from = src.landed_address() + burst * src_advance;
        T* to = dst.landed_address() + burst * dst_advance;
        for (uint64_t i = 0; i < dst_burst; ++i) to[i] = static_cast<T>(from[i]);
    }
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// L1 -> bias table with a type change (half bias widened to float).
template <typename T, typename U, typename std::enable_if<!std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyParams& repeatParams) {
    canopy::kernel::ascendc::copy_into_cube_buffer(dst, src, repeatParams);
}

// Fills `repeatTimes` runs of `blockNum` blocks (32 bytes in L1, 512 bytes in L0A / L0B) with
// initValue, skipping `dstGap` blocks after each run.
template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams) {
    using namespace canopy::kernel::ascendc;
    const char* api = "Fill";
    const InitConstValueParams<U>& p = initConstValueParams;
    const Hardware memory = dst.memory();
    if (memory != Hardware::L1 && memory != Hardware::L0A && memory != Hardware::L0B) [[unlikely]] {
        fail_misuse(api, "dst is a ", PositionName(dst.position()), " tensor (", HardwareName(memory),
                    "); Fill initialises L1, L0A or L0B");
    }
    const uint64_t block_bytes = memory == Hardware::L1 ? 32 : kFractalBytes;
    require_alignment(dst, block_bytes, api, "dst");
    if (p.repeatTimes == 0 || p.blockNum == 0) return;
    const uint64_t run = uint64_t(p.blockNum) * block_bytes / sizeof(T);
    const uint64_t advance = run + uint64_t(p.dstGap) * block_bytes / sizeof(T);
    require_elements(dst, int64_t((p.repeatTimes - 1) * advance + run), api, "dst (elements filled)");
    issue(memory == Hardware::L1 ? Pipe::MTE2 : Pipe::MTE1, api,
          writes(dst, ((p.repeatTimes - 1) * advance + run) * sizeof(T)));
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        T* to = dst.landed_address() + r * advance;
        for (uint64_t i = 0; i < run; ++i) to[i] = p.initValue;
    }
}

template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams) {
    Fill(dst, initConstValueParams);
}

}  // namespace AscendC
