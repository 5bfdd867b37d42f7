#pragma once
// The data of the workload, on the host: chunk inputs, the resident operands of the kernels, the
// reference outputs computed on the host, and the comparison of an output chunk with its reference.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "layout.h"
#include "options.h"

namespace canopy_bench {

// The operands every chunk shares, one copy per device: add's second input (a chunk-shaped
// vector), layernorm's gamma and beta, matmul's [K, N] weight. Stored in the chunk's element type
// except gamma and beta (float).
struct Resident {
    std::vector<std::uint8_t> add_other;
    std::vector<float> gamma;
    std::vector<float> beta;
    std::vector<std::uint8_t> weight;
};

Resident make_resident(const Layout& layout);

// Fills `out` (chunk_bytes) with the input of chunk `index` (stream * chunks + chunk): values in
// [-2, 2) drawn from a generator seeded by the index, so that every chunk differs.
void fill_input(const Layout& layout, std::uint64_t index, std::uint8_t* out);

// The expected output of a chunk, as floats (half outputs are widened), computed on the host in
// double precision with the kernels' storage rounding between operators.
void reference_output(const Options& options, const Layout& layout, const Resident& resident,
                      const std::uint8_t* input, float* expected);

// Tolerance of the kernels' chain: an element is wrong only when both its absolute and its relative
// error exceed it (the samples' rule), or when it is not finite and the reference is.
double tolerance(const Options& options, const Layout& layout);

struct ChunkCheck {
    std::uint64_t wrong = 0;        // elements
    std::uint64_t first_wrong = 0;  // element index of the first one
    float got = 0;
    float expected = 0;
};

ChunkCheck check_chunk(const Layout& layout, const std::uint8_t* output, const float* expected, double tolerance);

// IEEE binary16 conversions (round to nearest even), for host data.
std::uint16_t float_to_half(float value);
float half_to_float(std::uint16_t value);

}  // namespace canopy_bench
