#pragma once
// GlobalTensor<T>: a typed window onto global memory (GM). SetGlobalBuffer gives it a base and a size;
// every access through it, or through a view made by operator[], is checked against that size, the
// way an NPU's memory protection traps an overrun: reads past the end raise 507042, writes 507043.
// The tensor's address is CANN's public `address_` (a plain GM pointer, as in CANN), and the window is
// kept as a base address and a length, so the checks follow address_ wherever it is set: a tensor
// given another's address_ (catlass: `aGm_.address_ = tempA.address_`) is checked against its own
// window, and one that never had a SetGlobalBuffer window (default-constructed, its address set
// through address_ alone) is a window of unknown length, as after SetGlobalBuffer(buffer).
#include <cstdint>
#include <limits>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/deferred_moves.h"

namespace AscendC {

struct int4b_t;  // cube_types.h

// How the L2 cache treats a GlobalTensor's accesses (SetL2CacheHint), and which accesses.
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;

    __aicore__ inline GlobalTensor() = default;

    // This block's window: `bufferSize` elements from `buffer`.
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
        address_ = buffer;
        window_ = reinterpret_cast<uintptr_t>(buffer);
        limit_ = bufferSize;
    }

    // A window of unknown length (the cube samples pass no size); accesses are not bounds-checked.
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) {
        address_ = buffer;
        window_ = 0;
        limit_ = kUnknownLength;
    }

    // A raw address escapes: what MTE3 was given lands first (deferred_moves.h).
    __aicore__ inline __gm__ T* GetPhyAddr() const {
        if (canopy::kernel::deferred_store_count != 0) canopy::kernel::land_all_deferred_stores();
        return address_;
    }
    __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return GetPhyAddr() + offset; }
    // Canopy's accessor for the API implementation, spelled as LocalTensor's: GetPhyAddr.
    __gm__ T* landed_address() const { return GetPhyAddr(); }

    // Elements from this view's start to the end of the SetGlobalBuffer window (0 when unknown).
    __aicore__ inline uint64_t GetSize() const {
        const uint64_t start = ElementsIntoWindow();
        if (limit_ == kUnknownLength || start >= limit_) return 0;
        return limit_ - start;
    }

    // A view starting `offset` elements further on; it may start past the end, but then every
    // access through it fails.
    __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor view = *this;
        if constexpr (std::is_same_v<T, int4b_t>) {
            // int4: two elements to a byte (an odd offset would start mid-byte; the cube paths
            // take even offsets).
            view.address_ = reinterpret_cast<__gm__ T*>(reinterpret_cast<__gm__ uint8_t*>(address_) + offset / 2);
        } else {
            view.address_ = address_ + offset;
        }
        return view;
    }

    // A cache-policy hint: a CPU has no L2 policy to set, so only the mode is checked.
    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode) {
        static_assert(rwMode == CacheRwMode::READ || rwMode == CacheRwMode::WRITE || rwMode == CacheRwMode::RW,
                      "CacheRwMode is READ, WRITE or RW");
        if (mode != CacheMode::CACHE_MODE_DISABLE && mode != CacheMode::CACHE_MODE_NORMAL &&
            mode != CacheMode::CACHE_MODE_LAST && mode != CacheMode::CACHE_MODE_PERSISTENT) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("GlobalTensor::SetL2CacheHint", "CacheMode ", static_cast<int>(mode),
                                                  " is not DISABLE, NORMAL, LAST or PERSISTENT");
        }
    }

    __aicore__ inline T GetValue(uint64_t offset) const {
        return *CheckedSpan(offset, 1, false, "GlobalTensor::GetValue");
    }

    __aicore__ inline void SetValue(uint64_t offset, T value) const {
        *CheckedSpan(offset, 1, true, "GlobalTensor::SetValue") = value;
    }

    // Canopy's check behind every GM access: elements [first, first + count) of this view must lie
    // inside the SetGlobalBuffer window; the deferred moves and stores the access must not pass land
    // (deferred_moves.h). Returns their address.
    __gm__ T* CheckedSpan(uint64_t first, uint64_t count, bool write, const char* api) const {
        __gm__ T* span = BoundedSpan(first, count, write, api);
        canopy::kernel::before_gm_access(span, count * sizeof(T), write);
        return span;
    }

    // CheckedSpan's bounds check alone, for the copies that are themselves recorded as deferred moves
    // and stores, whose landing keeps the order.
    // (A window of unknown length starts at address 0 and reaches the end of the address space.)
    __gm__ T* BoundedSpan(uint64_t first, uint64_t count, bool write, const char* api) const {
        const uint64_t begin = ElementsIntoWindow() + first;
        if (begin > limit_ || count > limit_ - begin) [[unlikely]] FailSpan(first, count, write, api);
        return address_ + first;
    }

    // The current view's address; public as in Ascend C.
    __gm__ T* address_ = nullptr;

private:
    static constexpr uint64_t kUnknownLength = std::numeric_limits<uint64_t>::max();

    // Elements from the window's base to address_ (int4b_t: two to a byte).
    uint64_t ElementsIntoWindow() const {
        const uint64_t bytes = reinterpret_cast<uintptr_t>(address_) - window_;
        if constexpr (std::is_same_v<T, int4b_t>) return bytes * 2;
        return bytes / sizeof(T);
    }

    [[noreturn, gnu::cold, gnu::noinline]] void FailSpan(uint64_t first, uint64_t count, bool write,
                                                         const char* api) const {
        const uintptr_t at = reinterpret_cast<uintptr_t>(address_);
        const uint64_t bytes = limit_ * sizeof(T);
        if (at < window_) {
            // address_ was set before the window (past it, the elements are counted from its base).
            canopy::kernel::ascendc::fail_global_access(
                write, api, write ? "writes" : "reads", " through a GlobalTensor whose address_ lies ", window_ - at,
                " bytes before its SetGlobalBuffer window of ", limit_, " elements (", bytes,
                " bytes); a GlobalTensor reaches only the window SetGlobalBuffer gave it");
        }
        const uint64_t begin = ElementsIntoWindow() + first;
        canopy::kernel::ascendc::fail_global_access(write, api, write ? "writes" : "reads", " elements [", begin, ", ",
                                                    begin + count, ") of a GlobalTensor whose SetGlobalBuffer size is ",
                                                    limit_, " elements (", bytes, " bytes)");
    }

    // The SetGlobalBuffer window: its base address and its length in elements; address_ is
    // checked against it wherever it points. Never set, the window is of unknown length.
    uintptr_t window_ = 0;
    uint64_t limit_ = kUnknownLength;
};

}  // namespace AscendC
