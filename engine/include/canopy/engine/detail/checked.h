#pragma once
// Checked size arithmetic. Sizes, pitches, offsets and counts come from callers as size_t; an
// unchecked (rows - 1) * pitch + width or offset + size can wrap to a small value that passes a
// bounds check, after which the copy runs far outside its allocation. Every such sum, product and
// rounding in the runtime goes through these, and a false result is a parameter error.
#include <cstddef>
#include <cstdint>

namespace canopy::engine::detail {

// out = a + b; false (out unspecified) when the sum does not fit a size_t.
[[nodiscard]] inline bool checked_add(std::size_t a, std::size_t b, std::size_t& out) noexcept {
    return !__builtin_add_overflow(a, b, &out);
}

// out = a * b; false when the product does not fit a size_t.
[[nodiscard]] inline bool checked_mul(std::size_t a, std::size_t b, std::size_t& out) noexcept {
    return !__builtin_mul_overflow(a, b, &out);
}

// out = value rounded up to a multiple of alignment (non-zero); false when that does not fit.
[[nodiscard]] inline bool checked_align_up(std::size_t value, std::size_t alignment, std::size_t& out) noexcept {
    std::size_t sum;
    if (alignment == 0 || !checked_add(value, alignment - 1, sum)) return false;
    out = sum / alignment * alignment;
    return true;
}

// The bytes a 2D region of `height` rows of `width` bytes, `pitch` bytes apart, spans from its first
// byte: (height - 1) * pitch + width, 0 for an empty region; false when that does not fit.
[[nodiscard]] inline bool checked_extent_2d(std::size_t pitch, std::size_t width, std::size_t height,
                                            std::size_t& out) noexcept {
    if (width == 0 || height == 0) {
        out = 0;
        return true;
    }
    std::size_t rows;
    return checked_mul(height - 1, pitch, rows) && checked_add(rows, width, out);
}

// Whether `bytes` bytes at `offset` lie inside [0, size). Written so that nothing wraps: an offset
// past the end (a pointer into an allocation's padding) fails even for 0 bytes.
[[nodiscard]] inline bool fits(std::size_t offset, std::size_t bytes, std::size_t size) noexcept {
    return offset <= size && bytes <= size - offset;
}

// Whether [address, address + bytes) lies inside [base, base + size), for raw addresses.
[[nodiscard]] inline bool fits_range(std::uintptr_t address, std::size_t bytes, std::uintptr_t base,
                                     std::size_t size) noexcept {
    return address >= base && fits(static_cast<std::size_t>(address - base), bytes, size);
}

}  // namespace canopy::engine::detail
