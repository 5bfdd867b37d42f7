#pragma once
// How a chunk of B bytes is laid out for the operators of kernels/ops, and the launches that cover
// it. Pure arithmetic (no runtime, no kernel headers), shared by the option checks and the pipeline.
#include <cstdint>
#include <string>
#include <vector>

#include "options.h"

namespace canopy_bench {

enum class Element { f32, f16 };

// softmax and layernorm hold their whole [rows, columns] matrix in one block's Unified Buffer (input
// and output, 2 x 64 KiB here, within the 192 KiB UB with layernorm's gamma, beta and scratch), so
// a chunk is a matrix of 256-float rows covered by one-block launches of at most 64 rows each.
inline constexpr std::uint32_t row_columns = 256;
inline constexpr std::uint32_t rows_per_launch = 64;
inline constexpr float layernorm_epsilon = 1e-5f;

// matmul multiplies the chunk, an [M, K] half matrix, by a resident [K, N] weight with N = K, so
// that its output has the chunk's shape and can feed the next operator.
inline constexpr std::uint32_t matmul_k = 256;
inline constexpr std::uint32_t matmul_n = 256;
inline constexpr std::uint32_t matmul_base_n = 256;  // baseM x 256 floats fit L0C (128 KiB) for baseM <= 128
inline constexpr std::uint32_t matmul_base_k = 64;

// add streams each block's share through 2 x tile_num tiles of at most this many elements.
inline constexpr std::uint32_t add_max_tile_elements = 4096;

struct AddPlan {
    std::uint32_t length = 0;    // elements of the chunk
    std::uint32_t tile_num = 0;  // AddTiling::tileNum
    std::uint32_t blocks = 0;
};

struct RowsPlan {
    std::uint32_t rows = 0;  // of row_columns elements
    std::uint32_t launches = 0;
    std::uint32_t rows_in_launch(std::uint32_t launch) const {
        return launch + 1 < launches ? rows_per_launch : rows - rows_per_launch * (launches - 1);
    }
};

struct MatmulPlan {
    std::uint32_t m = 0, n = 0, k = 0;
    std::uint32_t single_core_m = 0, single_core_n = 0;
    std::uint32_t base_m = 0, base_n = 0, base_k = 0;
    std::uint32_t blocks = 0;
};

struct Layout {
    Element element = Element::f32;
    std::uint64_t elements = 0;  // per chunk
    std::uint32_t element_bytes = 4;
    AddPlan add;
    RowsPlan rows;
    MatmulPlan matmul;
    // Launches of one chunk through the whole chain, and how many of the hardware's cores each
    // kernel of the chain can keep busy (its blocks).
    std::vector<std::uint32_t> launches;  // per kernel
    std::vector<std::uint32_t> blocks;    // per kernel, per launch
};

// Plans the chunk for options.kernels; returns an empty string or the reason the options do not
// describe a valid chunk (e.g. a chunk size the kernels cannot split).
std::string plan_layout(const Options& options, Layout& layout);

}  // namespace canopy_bench
