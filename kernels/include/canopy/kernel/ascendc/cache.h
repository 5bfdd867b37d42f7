#pragma once
// The data-cache controls and the scalar accesses that bypass the data cache. A CPU's caches are
// coherent, so the controls have nothing to do beyond checking their arguments; the bypassing
// accesses are real GM reads and writes, made atomic so that blocks polling each other's flags
// (on parallel threads) see them.
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/deferred_moves.h"

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
    static_assert(sizeof(T) <= 8, "WriteGmByPassDCache writes one scalar");
    if (addr == nullptr) [[unlikely]] canopy::kernel::ascendc::fail_misuse("WriteGmByPassDCache", "addr is null");
    canopy::kernel::before_gm_access(addr, sizeof(T), true);
    __atomic_store(addr, &value, __ATOMIC_SEQ_CST);
}

template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr) {
    static_assert(sizeof(T) <= 8, "ReadGmByPassDCache reads one scalar");
    if (addr == nullptr) [[unlikely]] canopy::kernel::ascendc::fail_misuse("ReadGmByPassDCache", "addr is null");
    canopy::kernel::before_gm_access(addr, sizeof(T), false);
    T value;
    __atomic_load(addr, &value, __ATOMIC_SEQ_CST);
    return value;
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
    static_assert(dcciDst == DcciDst::CACHELINE_OUT || dcciDst == DcciDst::CACHELINE_ALL ||
                      dcciDst == DcciDst::CACHELINE_ATOMIC,
                  "a GlobalTensor's cache lines are CACHELINE_OUT, CACHELINE_ALL or CACHELINE_ATOMIC");
    if (entireType == CacheLine::SINGLE_CACHE_LINE && dst.landed_address() == nullptr) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("DataCacheCleanAndInvalid", "the GlobalTensor has no buffer");
    }
    if (canopy::kernel::deferred_store_count != 0) canopy::kernel::land_all_deferred_stores();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
    static_assert(dcciDst == DcciDst::CACHELINE_UB || dcciDst == DcciDst::CACHELINE_ALL,
                  "a LocalTensor's cache lines are CACHELINE_UB or CACHELINE_ALL");
    if (dst.memory() != Hardware::UB) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("DataCacheCleanAndInvalid", "the LocalTensor is in ",
                                              HardwareName(dst.memory()), ", not the UB");
    }
}

template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
    DataCacheCleanAndInvalid<T, entireType, DcciDst::CACHELINE_OUT>(dst);
}

template <typename T>
__aicore__ inline void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset) {
    static_assert(std::is_integral_v<T>, "DataCachePreload's offset is an integer");
    static_cast<void>(src);
    static_cast<void>(cacheOffset);
}

__aicore__ inline void ICachePreLoad(const int64_t preFetchLen) {
    if (preFetchLen < 0) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("ICachePreLoad", "preFetchLen ", preFetchLen, " is negative");
    }
}

}  // namespace AscendC

// The CCE intrinsic behind ICachePreLoad (catlass's MLA kernels call it directly): a hint to fetch
// the next `preFetchLen` instruction cache lines, which a CPU runs without.
__aicore__ inline void icache_preload(const int64_t preFetchLen) {
    if (preFetchLen < 0) [[unlikely]] {
        canopy::kernel::ascendc::fail_misuse("icache_preload", "preFetchLen ", preFetchLen, " is negative");
    }
}
