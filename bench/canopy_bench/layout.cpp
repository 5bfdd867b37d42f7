#include "layout.h"

#include <algorithm>

namespace canopy_bench {

namespace {

bool has(const Options& options, Kernel kernel) {
    return std::find(options.kernels.begin(), options.kernels.end(), kernel) != options.kernels.end();
}

std::string chunk_bytes_text(const Options& options) { return "--chunk-bytes " + std::to_string(options.chunk_bytes); }

std::string plan_add(const Options& options, Layout& layout) {
    AddPlan& plan = layout.add;
    plan.length = static_cast<std::uint32_t>(layout.elements);
    plan.blocks = options.blocks;
    // Each block takes an equal share, streamed as 2 x tileNum tiles of whole 32-byte DataCopy units.
    const std::uint32_t unit = 32 / layout.element_bytes;
    if (plan.length % (std::uint64_t{options.blocks} * 2 * unit) != 0) {
        return "add: " + chunk_bytes_text(options) + " (" + std::to_string(plan.length) +
               " elements) does not split into --blocks " + std::to_string(options.blocks) +
               " equal shares of whole double-buffered 32-byte tiles; use a multiple of " +
               std::to_string(std::uint64_t{options.blocks} * 64) + " bytes";
    }
    const std::uint32_t block_length = plan.length / options.blocks;
    // The fewest tiles that fit the limit; one-unit tiles always divide the block (checked above).
    for (std::uint32_t tiles = std::max<std::uint32_t>(1, block_length / (2 * add_max_tile_elements));; ++tiles) {
        const std::uint32_t tile = block_length / (2 * tiles);
        if (block_length % (2 * tiles) == 0 && tile <= add_max_tile_elements && tile % unit == 0) {
            plan.tile_num = tiles;
            return {};
        }
    }
}

std::string plan_rows(const Options& options, Layout& layout, const char* kernel) {
    if (layout.elements % row_columns != 0) {
        return std::string(kernel) + ": " + chunk_bytes_text(options) + " is not a whole number of rows of " +
               std::to_string(row_columns) + " floats; use a multiple of " + std::to_string(row_columns * 4) + " bytes";
    }
    RowsPlan& plan = layout.rows;
    plan.rows = static_cast<std::uint32_t>(layout.elements / row_columns);
    plan.launches = (plan.rows + rows_per_launch - 1) / rows_per_launch;
    return {};
}

std::string plan_matmul(const Options& options, Layout& layout) {
    MatmulPlan& plan = layout.matmul;
    constexpr std::uint32_t cube = 16;
    if (layout.elements % (std::uint64_t{matmul_k} * cube) != 0) {
        return "matmul: " + chunk_bytes_text(options) + " is not a whole number of 16-row bands of an [M, " +
               std::to_string(matmul_k) + "] half matrix; use a multiple of " +
               std::to_string(matmul_k * cube * 2) + " bytes";
    }
    plan.k = matmul_k;
    plan.n = matmul_n;
    plan.m = static_cast<std::uint32_t>(layout.elements / matmul_k);
    if (plan.m % options.blocks != 0 || (plan.m / options.blocks) % cube != 0) {
        return "matmul: the chunk's M = " + std::to_string(plan.m) + " rows do not split into --blocks " +
               std::to_string(options.blocks) + " bands of a multiple of 16 rows";
    }
    plan.blocks = options.blocks;
    plan.single_core_m = plan.m / options.blocks;
    plan.single_core_n = plan.n;
    plan.base_n = matmul_base_n;
    plan.base_k = matmul_base_k;
    for (std::uint32_t base : {128u, 64u, 32u, 16u}) {
        if (plan.single_core_m % base == 0) {
            plan.base_m = base;
            break;
        }
    }
    return {};
}

}  // namespace

std::string plan_layout(const Options& options, Layout& layout) {
    layout = Layout{};
    if (options.kernels.empty()) return "--kernel names no kernel";
    if (options.blocks == 0) return "--blocks must be at least 1";
    const bool half = has(options, Kernel::matmul);
    if (half && (has(options, Kernel::softmax) || has(options, Kernel::layernorm))) {
        return "--kernel: matmul works on half and softmax / layernorm on float; a chain cannot mix them "
               "(add works on either)";
    }
    layout.element = half ? Element::f16 : Element::f32;
    layout.element_bytes = half ? 2 : 4;
    if (options.chunk_bytes % layout.element_bytes != 0) {
        return chunk_bytes_text(options) + " is not a whole number of " + std::to_string(layout.element_bytes) +
               "-byte elements";
    }
    layout.elements = options.chunk_bytes / layout.element_bytes;
    for (Kernel kernel : options.kernels) {
        std::string error;
        switch (kernel) {
            case Kernel::add:
                error = plan_add(options, layout);
                layout.launches.push_back(1);
                layout.blocks.push_back(layout.add.blocks);
                break;
            case Kernel::softmax:
            case Kernel::layernorm:
                error = plan_rows(options, layout, kernel_name(kernel));
                layout.launches.push_back(layout.rows.launches);
                layout.blocks.push_back(1);
                break;
            case Kernel::matmul:
                error = plan_matmul(options, layout);
                layout.launches.push_back(1);
                layout.blocks.push_back(layout.matmul.blocks);
                break;
        }
        if (!error.empty()) return error;
    }
    return {};
}

}  // namespace canopy_bench
