#pragma once
// The temporary-buffer sizes of the normalization, quantization, reduce, sort, index, filter,
// select, pad and transpose APIs: one rule per API, used by the host tiling functions (what they
// return) and by the kernel side (the minimum a call checks its buffer against). CANN's numbers.
#include <algorithm>
#include <cstdint>

namespace canopy::adv::sizes {

inline constexpr uint32_t kBlock = 32;
inline constexpr uint32_t kRepeat = 256;

inline constexpr uint32_t round_up(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }
inline constexpr uint32_t ceil_div(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit; }

// Sum over rows of n elements: one partial per 256-byte repeat, rounded up to 32 bytes.
inline constexpr uint32_t sum(uint32_t n, uint32_t type_size) {
    const uint32_t per_block = kBlock / type_size;
    const uint32_t per_repeat = kRepeat / type_size;
    return round_up(ceil_div(n, per_repeat), per_block) * type_size;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// AscendQuant: two repeats of half at least; at most twice the input's elements (in bytes of half).
inline constexpr uint32_t ascend_quant_min() { return 2 * kRepeat; }
inline constexpr uint32_t ascend_quant_max(uint32_t elements) {
    return round_up(std::max(elements * 2, 2 * kRepeat), kBlock);
}

// AscendDequant over [outer, inner] int32: one repeat of float, the scale widened, and one row
// (minimum) or all rows (maximum) in float.
inline constexpr uint32_t ascend_dequant_min(uint32_t inner) { return (64 + inner + inner + 8) * 4; }
inline constexpr uint32_t ascend_dequant_max(uint32_t outer, uint32_t inner) {
    return (64 + outer * inner + inner + 8) * 4;
}

// AscendAntiQuant to float outputs (bfloat16): to half it needs none.
inline constexpr uint32_t ascend_antiquant_min(uint32_t src_size, uint32_t scale_size, uint32_t k, bool transpose,
                                               bool to_half) {
    if (to_half) return 0;
    if (scale_size == 1) return 1024;
    (void)src_size;
    if (transpose) return 80 * scale_size * 4;
    return scale_size * 2 * 4 + 64 * k * 4;
}
inline constexpr uint32_t ascend_antiquant_max(uint32_t src_size, uint32_t scale_size, uint32_t k, bool transpose,
                                               bool to_half) {
    if (to_half) return 0;
    const bool per_channel = scale_size != 1;
    if (transpose && per_channel) return 80 * scale_size * 4;
    if (!per_channel) return src_size * 4;
    return scale_size * 2 * 4 + 64 * k * 4;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// DropOut: two repeats at least; at most two floats per element.
inline constexpr uint32_t dropout_min() { return 2 * kRepeat; }
inline constexpr uint32_t dropout_max(uint32_t elements) { return std::max(dropout_min(), 2 * elements * 4); }

// Select with a bytes mask: the (at most 4096-element, for the minimum) source in half rounded
// up to 32 elements plus 512 reserved bytes, at least 1024; plus the mask repacked when its rows
// are longer than the source's and it may not be reused.
inline constexpr uint32_t select_bytes_mask(uint32_t src_size, uint32_t src_last, uint32_t mask_last,
                                            uint32_t mask_type_size, bool reuse_mask, bool minimum) {
    const uint32_t cal = (minimum && src_size > 4096) ? 4096 : src_size;
    uint32_t required = std::max<uint32_t>(1024, round_up(cal, kBlock) * 2 + 512);
    if (mask_last != src_last && !reuse_mask && mask_last > 1) required += round_up(src_size * mask_type_size, kBlock);
    return required;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// Broadcast on the A2 of src [src_first, src_last] to dst [dst_first, dst_last] (1-D shapes have
// last 1): nothing when the source is a scalar or already the destination's size; 32 bytes for
// axis 0; else the brcb block (the first dimension's blocks at most) plus a copy buffer when the
// destination's rows are not 32-byte aligned. int8 is widened to int16 first, with room for both.
struct BroadcastSizes {
    uint32_t min_value;
    uint32_t max_value;
};
inline constexpr BroadcastSizes broadcast(uint32_t src_first, uint32_t src_last, uint32_t dst_first, uint32_t dst_last,
                                          uint32_t type_size) {
    uint32_t cast = 0;
    const uint32_t src_size = src_first * src_last;
    const uint32_t dst_size = dst_first * dst_last;
    if (type_size == 1) {
        type_size = 2;
        cast = (round_up(src_size, 16) + round_up(dst_size, 16)) * 2;
    }
    if (src_size == dst_size || src_size == 1) {
        const uint32_t size = cast == 0 ? 0 : cast + kBlock;
        return {size, size};
    }
    if (src_last != 1) return {kBlock + cast, kBlock + cast};  // axis 0
    const uint32_t per_block = kBlock / type_size;
    const uint32_t brcb_min = per_block * per_block * type_size;
    const uint32_t brcb_max = round_up(dst_first, 8) * per_block * type_size;
    if (dst_last % per_block == 0) return {brcb_min + cast, brcb_max + cast};
    const uint32_t last_align = round_up(dst_last, per_block);
    return {brcb_min + per_block * last_align * type_size + cast, brcb_max + dst_first * last_align * type_size + cast};
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// Pad: two buffers of 16 blocks (the transposes' address lists), at most enough for all elements.
inline constexpr uint32_t pad_min(uint32_t type_size) { return 16 * (kBlock / type_size) * 2 * type_size; }
inline constexpr uint32_t pad_max(uint32_t elements, uint32_t type_size) {
    return ((elements - 1) / 16 + 1) * 16 * (kBlock / type_size) * 2 * type_size;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

inline constexpr uint32_t highest_power_of_two(uint32_t n) {
    uint32_t k = 1;
    while (n > 1) {
        k <<= 1;
        n >>= 1;
    }
    return k;
}

// ReduceMax / ReduceMin over [first, last] (AR reduces `last`, RA reduces `first`).
inline constexpr uint32_t reduce_extreme(uint32_t first, uint32_t last, uint32_t type_size, bool ar, bool reuse) {
    if (reuse) return 0;
    if (ar) {
        const uint32_t per_block = kBlock / type_size;
        const uint32_t per_repeat = kRepeat / type_size;
        if (last <= per_block) return 0;
        if (last < per_repeat) return first * per_block * type_size;
        return first * per_repeat * type_size;
    }
    uint32_t k = highest_power_of_two(first);
    if (k == first && first > 1) k >>= 1;
    return k * round_up(last * type_size, kBlock);
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// RmsNorm over [B, S, H]: one row of H floats (two for half) and a block of row results at least;
// the whole input at most.
inline constexpr uint32_t rmsnorm_min(uint32_t h, uint32_t type_size) { return ((type_size == 2 ? h * 2 : h) + 8) * 4; }
inline constexpr uint32_t rmsnorm_max(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size) {
    const uint32_t bs = round_up(b * s, kBlock / type_size);
    return ((type_size == 2 ? b * s * h * 2 : b * s * h) + bs) * 4;
}

// DeepNorm / LayerNorm over [B, S, H]: three (two when a float source is reused) H rows of floats
// and the mean and variance of every row at least; three whole inputs at most.
inline constexpr uint32_t bsh_norm_min(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size, bool reuse) {
    const uint32_t bs_bytes = round_up(b * s * 4, kBlock);
    const uint32_t h_bytes = round_up(h * 4, kBlock);
    return ((reuse && type_size == 4) ? 2 : 3) * h_bytes + 2 * bs_bytes;
}
inline constexpr uint32_t bsh_norm_max(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size, bool reuse) {
    const uint32_t bs_bytes = round_up(b * s * 4, kBlock);
    const uint32_t bsh_bytes = round_up(b * s * h * 4, kBlock);
    return ((reuse && type_size == 4) ? 2 : 3) * bsh_bytes + 2 * bs_bytes;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// LayerNorm of [A, R] (the separate form): two padded R rows of floats and the A variances at
// least, widened to what Normalize needs.
inline constexpr uint32_t normalize_min(uint32_t a, uint32_t r, uint32_t type_size_u, uint32_t type_size_t) {
    const uint32_t r_pad = round_up(r, kBlock / type_size_t);
    const uint32_t a_bytes = round_up(a * 4, kBlock);
    const uint32_t r_bytes = round_up(r_pad * 4, kBlock);
    const uint32_t nr = (type_size_u == 4 ? 2 : 4) * r_bytes;
    return std::max(a_bytes, nr);
}
inline constexpr uint32_t normalize_max(uint32_t a, uint32_t r, uint32_t type_size_t) {
    const uint32_t r_pad = round_up(r, kBlock / type_size_t);
    return 2 * round_up(r_pad * 4, kBlock) + 2 * round_up(round_up(a, 8) * r_pad * 4, kBlock);
}
inline constexpr uint32_t layernorm_separate_min(uint32_t a, uint32_t r, uint32_t type_size) {
    const uint32_t r_pad = round_up(r, kBlock / type_size);
    const uint32_t mv = round_up(a * 4, kBlock);
    uint32_t min_value = 2 * round_up(r_pad * 4, kBlock) + mv;
    const uint32_t normalize = normalize_min(a, r, type_size, type_size);
    if (min_value - mv <= normalize) min_value = normalize + mv;
    return min_value;
}
inline constexpr uint32_t layernorm_separate_max(uint32_t a, uint32_t r, uint32_t type_size) {
    const uint32_t r_pad = round_up(r, kBlock / type_size);
    const uint32_t mv = round_up(a * 4, kBlock);
    uint32_t max_value = 2 * round_up(a * r_pad * 4, kBlock) + mv;
    const uint32_t normalize = normalize_max(a, r, type_size);
    if (max_value - mv <= normalize) max_value = normalize + mv;
    return max_value;
}

// LayerNormGrad over [B, S, H]: 6 float buffers (4 reusing a float source, 9 for half) of the
// smaller (minimum) or larger (maximum) of B*S*H and H*H elements, in bytes of the type.
inline constexpr uint32_t layernorm_grad_buffers(uint32_t type_size, bool reuse) {
    return type_size == 2 ? 9 : (reuse ? 4 : 6);
}
inline constexpr uint32_t layernorm_grad_min(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size, bool reuse) {
    return std::min(b * s * h, h * h) * layernorm_grad_buffers(type_size, reuse) * type_size;
}
inline constexpr uint32_t layernorm_grad_max(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size, bool reuse) {
    return std::max(b * s * h, h * h) * layernorm_grad_buffers(type_size, reuse) * type_size;
}

// LayerNormGradBeta: two (four for half) float rows of H at least, of B*S*H at most.
inline constexpr uint32_t layernorm_grad_beta_min(uint32_t h, uint32_t type_size) {
    return (type_size == 2 ? 4 : 2) * h * 4;
}
inline constexpr uint32_t layernorm_grad_beta_max(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size) {
    return (type_size == 2 ? 4 : 2) * b * s * h * 4;
}

// WelfordUpdate: three repeats for half input, one when a float source is reused, two otherwise.
inline constexpr uint32_t welford_update_min(uint32_t type_size_t, bool reuse) {
    return (type_size_t == 2 ? 3 : (reuse ? 1 : 2)) * kRepeat;
}
inline constexpr uint32_t welford_update_max(uint32_t rn, uint32_t ab, uint32_t type_size_t, bool reuse) {
    return ceil_div(rn * ab, 64) * welford_update_min(type_size_t, reuse);
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// WelfordFinalize over abLength statistics: four repeats of floats at least.
inline constexpr uint32_t welford_finalize_min() { return 64 * 4 * 4; }
inline constexpr uint32_t welford_finalize_max(uint32_t ab) {
    return ab <= 64 ? welford_finalize_min() : (64 * 2 + ab * 2) * 4;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// TopK on the A2: normal mode 16 (20 without initial indices) bytes per inner element; small mode
// the Sort32 pairs of every row, the mask, and (ascending) the negated values and (no initial
// indices) generated indices.
inline constexpr uint32_t topk_min(uint32_t inner, uint32_t outter, bool init_index, bool small, bool largest) {
    if (!small) return (init_index ? 16 : 20) * inner;
    uint32_t size = inner * outter * 8 + 64;
    if (!largest) size += inner * outter * 4;
    if (!init_index) size += inner * outter * 4;
    return size;
}

}  // namespace canopy::adv::sizes

namespace canopy::adv::sizes {

// A full Sort on the A2: the (score, index) pairs of every element, 8 bytes each.
inline constexpr uint32_t sort_pairs(uint32_t elements) { return elements * 8; }

}  // namespace canopy::adv::sizes
