#pragma once
// The Unified Buffer arrays a kernel declares itself, as the C API's kernels do:
//
//   __ubuf__ float x_local[2048];          // in a kernel, a __simd_vf__ or __simt_vf__ function
//   static __ubuf__ half tile[64][16];     // static too: the compiler places it once
//   extern __ubuf__ float smem[];          // the launch's dynamic UB (its dynUBufSize)
//
// bisheng places these in the core's UB, not on a stack. The kernel compiler (canopy-launch-rewrite)
// rewrites each declaration, in place, into one of the two forms below, so that the compiled code
// addresses the block's modelled UB (BlockContext::ub) and every check of the UB (the vector and
// register APIs' ranges, the pipe model) sees these arrays as the UB they are:
//
//   __ubuf__ float (&x_local)[2048] = ::canopy::kernel::ub_array([] {}, "x_local");
//   static constexpr ::canopy::kernel::UbDynamic<__ubuf__ float[]> smem{"smem"};
//
// A fixed-size array becomes a reference to an array of the same type, so that it decays, indexes
// and has the sizeof of the array it was. Its place is given once per block the first time the
// declaration runs (a declaration in a loop keeps its place), by the declaration's own site (the
// lambda's type: each template instantiation has its own): 32-byte aligned, upwards from the start
// of the UB, as static placement by the compiler; a kernel whose arrays do not fit in the UB that the
// dynamic region leaves fails naming the array and the sizes. A dynamic (extern, unknown bound) array
// becomes a checked view of the last dynUBufSize bytes of the block's UB: it converts to the element
// pointer, and indexing it outside the region fails naming the array and the index.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel {

namespace detail {
// As the kernel API's misuse checks raise.
inline constexpr int ub_array_fault = ACL_ERROR_RT_AICORE_EXCEPTION;

// One address per declaration site: the site's lambda type names it.
template <typename Site>
inline const char ub_array_site = 0;

[[noreturn, gnu::cold, gnu::noinline]] inline void fail_ub_array(const char* name, const std::string& what) {
    raise(ub_array_fault, "__ubuf__ array", std::string(name) + ": " + what);
}

// The static region's first free byte after `bytes` more at 32-byte alignment; records the site.
[[gnu::noinline]] inline std::byte* place_new_ub_array(BlockContext& block, const void* site, std::size_t bytes,
                                                        const char* name) {
    UbArrays& arrays = block.ub_arrays;
    if (block.ub == nullptr) fail_ub_array(name, "this core has no Unified Buffer (an AIC)");
    const std::size_t static_bytes = block.ub_bytes - block.ub_dynamic_bytes;
    const std::size_t offset = (std::size_t{arrays.top} + 31) & ~std::size_t{31};
    if (bytes > static_bytes || offset > static_bytes - bytes) {
        fail_ub_array(name, "its " + std::to_string(bytes) + " bytes at UB byte " + std::to_string(offset) +
                                " do not fit in the " + std::to_string(static_bytes) +
                                "-byte Unified Buffer the kernel's arrays share (" +
                                std::to_string(block.ub_bytes) + " bytes, less " +
                                std::to_string(block.ub_dynamic_bytes) + " of dynamic UB)");
    }
    if (arrays.count == UbArrays::max_sites) {
        fail_ub_array(name, "more than " + std::to_string(UbArrays::max_sites) + " __ubuf__ arrays in one block");
    }
    arrays.sites[arrays.count] = site;
    arrays.offsets[arrays.count] = static_cast<std::uint32_t>(offset);
    ++arrays.count;
    arrays.top = static_cast<std::uint32_t>(offset + bytes);
    return block.ub + offset;
}

inline std::byte* place_ub_array(const void* site, std::size_t bytes, const char* name) {
    BlockContext& block = current_block();
    const UbArrays& arrays = block.ub_arrays;
    for (std::uint32_t i = 0; i < arrays.count; ++i) {
        if (arrays.sites[i] == site) return block.ub + arrays.offsets[i];
    }
    return place_new_ub_array(block, site, bytes, name);
}
}  // namespace detail

// What `= ub_array([] {}, "name")` binds the rewritten reference to: the array's place in the UB.
template <typename Site>
struct UbArrayPlacement {
    const char* name;
    template <typename Array, std::enable_if_t<std::is_array_v<Array> && std::extent_v<Array> != 0, int> = 0>
    operator Array&() const {
        return *reinterpret_cast<Array*>(detail::place_ub_array(&detail::ub_array_site<Site>, sizeof(Array), name));
    }
};

template <typename Site>
inline UbArrayPlacement<Site> ub_array(Site, const char* name) {
    return UbArrayPlacement<Site>{name};
}

// An `extern __ubuf__ T name[]`: the launch's dynamic UB, the last BlockContext::ub_dynamic_bytes of
// the block's UB.
template <typename Array>
struct UbDynamic;

template <typename T>
struct UbDynamic<T[]> {
    const char* name;

    T* data() const {
        BlockContext& block = current_block();
        if (block.ub == nullptr) detail::fail_ub_array(name, "this core has no Unified Buffer (an AIC)");
        return reinterpret_cast<T*>(block.ub + (block.ub_bytes - block.ub_dynamic_bytes));
    }
    // The elements the launch's dynamic UB holds.
    std::size_t size() const { return current_block().ub_dynamic_bytes / sizeof(T); }

    operator T*() const { return data(); }
    template <typename U, std::enable_if_t<!std::is_same_v<std::remove_cv_t<U>, std::remove_cv_t<T>>, int> = 0>
    explicit operator U*() const {
        return reinterpret_cast<U*>(data());
    }
    template <typename Index, std::enable_if_t<std::is_integral_v<Index> || std::is_enum_v<Index>, int> = 0>
    T& operator[](Index index) const {
        const auto at = static_cast<long long>(index);
        const std::size_t count = size();
        if (at < 0 || static_cast<unsigned long long>(at) >= count) [[unlikely]] {
            detail::fail_ub_array(name, "element " + std::to_string(at) + " is outside the launch's dynamic UB of " +
                                            std::to_string(count) + " elements (" +
                                            std::to_string(current_block().ub_dynamic_bytes) + " bytes)");
        }
        return data()[at];
    }
};

}  // namespace canopy::kernel
