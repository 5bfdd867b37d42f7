#pragma once
// Atomic copies into global memory: after SetAtomicAdd<T>() / SetAtomicMax<T>() / SetAtomicMin<T>()
// every copy into GM (DataCopy and DataCopyPad through store_to_gm, the cube path's Fixpipe in fixpipe.h)
// combines each element with what GM holds, until DisableDmaAtomic(). Blocks run on parallel
// threads, so each element is combined with a compare-and-swap: concurrent blocks accumulating
// into the same GM really add up, as on the NPU.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/system.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/deferred_moves.h"

namespace canopy::kernel::ascendc {

template <typename T>
constexpr AtomicElement atomic_element_of() {
    if constexpr (std::is_same_v<T, float>) return AtomicElement::f32;
    else if constexpr (std::is_same_v<T, half>) return AtomicElement::f16;
    else if constexpr (std::is_same_v<T, Eigen::bfloat16>) return AtomicElement::bf16;
    else if constexpr (std::is_same_v<T, int32_t>) return AtomicElement::s32;
    else if constexpr (std::is_same_v<T, int16_t>) return AtomicElement::s16;
    else if constexpr (std::is_same_v<T, int8_t>) return AtomicElement::s8;
    else return AtomicElement::none;
}

inline const char* atomic_element_name(AtomicElement element) {
    switch (element) {
        case AtomicElement::f32: return "float";
        case AtomicElement::f16: return "half";
        case AtomicElement::bf16: return "bfloat16_t";
        case AtomicElement::s32: return "int32_t";
        case AtomicElement::s16: return "int16_t";
        case AtomicElement::s8: return "int8_t";
        default: return "none";
    }
}

template <typename T>
inline void set_atomic(AtomicOperation operation) {
    static_assert(atomic_element_of<T>() != AtomicElement::none,
                  "atomic copies combine int8_t, int16_t, int32_t, half, bfloat16_t or float");
    CoreRegisters& registers = core_registers();
    registers.atomic_operation = static_cast<uint8_t>(operation);
    registers.atomic_element = static_cast<uint8_t>(atomic_element_of<T>());
}

template <typename T>
inline T combine(AtomicOperation operation, T current, T value) {
    switch (operation) {
        case AtomicOperation::add: return static_cast<T>(current + value);
        case AtomicOperation::max: return value > current ? value : current;
        case AtomicOperation::min: return value < current ? value : current;
        default: return value;
    }
}

template <typename T>
using atomic_bits_t = std::conditional_t<sizeof(T) == 1, uint8_t,
                                         std::conditional_t<sizeof(T) == 2, uint16_t,
                                                            std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

// dst[i] = combine(dst[i], src[i]) with one compare-and-swap per element.
template <typename T>
inline void combine_into(AtomicOperation operation, T* dst, const T* src, uint64_t count) {
    using Bits = atomic_bits_t<T>;
    static_assert(sizeof(Bits) == sizeof(T), "no atomic word of this element size");
    for (uint64_t i = 0; i < count; ++i) {
        Bits* word = reinterpret_cast<Bits*>(dst + i);
        Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
        while (true) {
            T current;
            std::memcpy(static_cast<void*>(&current), &expected, sizeof(T));
            const T next = combine(operation, current, src[i]);
            Bits desired;
            std::memcpy(&desired, static_cast<const void*>(&next), sizeof(T));
            if (__atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
        }
    }
}

// Writes `count` elements into GM the way the core's atomic mode says: a plain copy, or combined
// element by element. `api` names the copy in the message when the mode's type is not T.
template <typename T>
inline void store_to_gm(T* dst, const T* src, uint64_t count, const char* api) {
    const CoreRegisters& registers = core_registers();
    const auto operation = static_cast<AtomicOperation>(registers.atomic_operation);
    if (operation == AtomicOperation::none) {
        std::memcpy(static_cast<void*>(dst), src, count * sizeof(T));
        return;
    }
    const auto element = static_cast<AtomicElement>(registers.atomic_element);
    if (element != atomic_element_of<T>()) [[unlikely]] {
        fail_misuse(api, "the atomic mode combines ", atomic_element_name(element),
                    " elements but the copy moves elements of another type (",
                    atomic_element_name(atomic_element_of<T>()), "); set the mode with the copy's type");
    }
    if constexpr (atomic_element_of<T>() != AtomicElement::none) combine_into(operation, dst, src, count);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

// Sets the type later atomic copies combine (the operation stays as set).
template <typename T>
__aicore__ inline void SetAtomicType() {
    static_assert(canopy::kernel::ascendc::atomic_element_of<T>() != canopy::kernel::ascendc::AtomicElement::none,
                  "atomic copies combine int8_t, int16_t, int32_t, half, bfloat16_t or float");
    canopy::kernel::ascendc::core_registers().atomic_element =
        static_cast<uint8_t>(canopy::kernel::ascendc::atomic_element_of<T>());
}

template <typename T>
__aicore__ inline void SetAtomicAdd() {
    canopy::kernel::ascendc::set_atomic<T>(canopy::kernel::ascendc::AtomicOperation::add);
}

template <typename T>
__aicore__ inline void SetAtomicMax() {
    canopy::kernel::ascendc::set_atomic<T>(canopy::kernel::ascendc::AtomicOperation::max);
}

template <typename T>
__aicore__ inline void SetAtomicMin() {
    canopy::kernel::ascendc::set_atomic<T>(canopy::kernel::ascendc::AtomicOperation::min);
}

// Copies into GM overwrite again.
__aicore__ inline void DisableDmaAtomic() {
    canopy::kernel::CoreRegisters& registers = canopy::kernel::ascendc::core_registers();
    registers.atomic_operation = static_cast<uint8_t>(canopy::kernel::ascendc::AtomicOperation::none);
    registers.atomic_element = static_cast<uint8_t>(canopy::kernel::ascendc::AtomicElement::none);
}

// The older name of DisableDmaAtomic.
__aicore__ inline void SetAtomicNone() { DisableDmaAtomic(); }

}  // namespace AscendC

#if __NPU_ARCH__ == 3510
// ---- The 950's scalar atomics on GM (kernel_operator_atomic_intf.h; dav_3510 atomicAdd / atomicMax /
// atomicMin / atomicCAS / atomicExch): one element read, combined and written back indivisibly
// (every block of the launch may hit the same element at once); each returns the element as it was.
// The address must be a GM element aligned to its size; what the block's pending moves and stores
// into or out of that element must land first, as for any GM access (deferred_moves.h).
namespace canopy::kernel::ascendc {

template <typename T>
inline T* scalar_atomic_target(T* address, const char* api) {
    if (address == nullptr) [[unlikely]] fail_misuse(api, "address is null");
    if (reinterpret_cast<uintptr_t>(address) % sizeof(T) != 0) [[unlikely]] {
        char hex[24];
        std::snprintf(hex, sizeof(hex), "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(address)));
        fail_misuse(api, "address ", static_cast<const char*>(hex), " is not aligned to its ", sizeof(T),
                    "-byte element");
    }
    canopy::kernel::before_gm_access(address, sizeof(T), true);
    return address;
}

// Replaces *address by combine(old) with a compare-and-swap loop on the element's bits; returns old.
template <typename T, typename Combine>
inline T scalar_atomic_update(T* address, Combine combine) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    static_assert(sizeof(T) == sizeof(Bits));
    Bits* word = reinterpret_cast<Bits*>(address);
    Bits expected = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    for (;;) {
        T old;
        std::memcpy(&old, &expected, sizeof(T));
        const T updated = combine(old);
        Bits desired;
        std::memcpy(&desired, &updated, sizeof(T));
        if (__atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            return old;
        }
    }
}

template <typename T>
constexpr bool scalar_atomic_arithmetic = std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                                          std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> ||
                                          std::is_same_v<T, float>;
template <typename T>
constexpr bool scalar_atomic_bits = std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T>
__aicore__ inline T AtomicAdd(__gm__ T* address, T value) {
    using namespace canopy::kernel::ascendc;
    static_assert(scalar_atomic_arithmetic<T>, "AtomicAdd takes int32_t, uint32_t, int64_t, uint64_t or float");
    return scalar_atomic_update(scalar_atomic_target(address, "AtomicAdd"), [value](T old) { return T(old + value); });
}

template <typename T>
__aicore__ inline T AtomicMax(__gm__ T* address, T value) {
    using namespace canopy::kernel::ascendc;
    static_assert(scalar_atomic_arithmetic<T>, "AtomicMax takes int32_t, uint32_t, int64_t, uint64_t or float");
    return scalar_atomic_update(scalar_atomic_target(address, "AtomicMax"),
                                [value](T old) { return old < value ? value : old; });
}

template <typename T>
__aicore__ inline T AtomicMin(__gm__ T* address, T value) {
    using namespace canopy::kernel::ascendc;
    static_assert(scalar_atomic_arithmetic<T>, "AtomicMin takes int32_t, uint32_t, int64_t, uint64_t or float");
    return scalar_atomic_update(scalar_atomic_target(address, "AtomicMin"),
                                [value](T old) { return value < old ? value : old; });
}

// Writes value2 where the element equals value1.
template <typename T>
__aicore__ inline T AtomicCas(__gm__ T* address, T value1, T value2) {
    using namespace canopy::kernel::ascendc;
    static_assert(scalar_atomic_bits<T>, "AtomicCas takes uint32_t or uint64_t");
    T* target = scalar_atomic_target(address, "AtomicCas");
    T expected = value1;
    __atomic_compare_exchange_n(target, &expected, value2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;  // the element before: value1 when the swap happened
}

template <typename T>
__aicore__ inline T AtomicExch(__gm__ T* address, T value) {
    using namespace canopy::kernel::ascendc;
    static_assert(scalar_atomic_bits<T>, "AtomicExch takes uint32_t or uint64_t");
    return __atomic_exchange_n(scalar_atomic_target(address, "AtomicExch"), value, __ATOMIC_SEQ_CST);
}

}  // namespace AscendC
#endif
