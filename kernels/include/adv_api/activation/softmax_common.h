#pragma once
// What Canopy's SoftMax family shares: the shape of a call (from its SoftMaxShapeInfo, else its
// tiling) checked against the tensors, the tiling and the temporary buffer, and the rows of a
// [srcM, srcK] tile as a float Eigen array. The reduced values (max, sum) of a row are written to
// one 32-byte block per row, the value repeated, as CANN lays them out.
#include <cstdint>
#include <cstring>

#include "adv_api/activation/softmax_tiling.h"
#include "adv_api/activation/softmax_tilingdata.h"
#include "adv_api/activation/softmax_utils.h"
#include "canopy/adv/adv_common.h"
#include "canopy/kernel/ascendc/shape_info.h"

namespace canopy::adv {

using RowMatrix = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct SoftmaxShape {
    uint32_t m = 0;      // rows
    uint32_t k = 0;      // columns of the tile (32-byte aligned)
    uint32_t valid = 0;  // columns computed (oriSrcK when it is set and smaller)
};

// The shape a call works on; with isCheckTiling false the tiling must describe that very shape.
template <typename T, typename Tiling>
inline SoftmaxShape softmax_shape(const char* api, const Tiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                                  bool check_tiling) {
    SoftmaxShape shape;
    shape.m = info.srcM != 0 ? info.srcM : tiling.srcM;
    shape.k = info.srcK != 0 ? info.srcK : tiling.srcK;
    shape.valid = info.oriSrcK != 0 && info.oriSrcK < shape.k ? info.oriSrcK : shape.k;
    if (shape.m == 0 || shape.k == 0) [[unlikely]] {
        fail_misuse(api, "the shape is ", shape.m, " x ", shape.k,
                    ": softmaxShapeInfo (or the tiling) must give the rows and columns");
    }
    if ((uint64_t(shape.k) * sizeof(T)) % 32 != 0) [[unlikely]] {
        fail_misuse(api, "srcK ", shape.k, " of ", sizeof(T), "-byte elements is not 32-byte aligned");
    }
    if (!check_tiling && (tiling.srcM != shape.m || tiling.srcK != shape.k || tiling.splitM == 0)) [[unlikely]] {
        fail_misuse(api, "the tiling (srcM ", tiling.srcM, ", srcK ", tiling.srcK, ", splitM ", tiling.splitM,
                    ") does not match the shape ", shape.m, " x ", shape.k,
                    " and isCheckTiling is false: compute it with the tiling function for this shape");
    }
    return shape;
}

// isBasicBlock promises rows in multiples of 8 and columns in multiples of 64 (CANN's basic block).
inline void require_basic_block(const char* api, const SoftmaxShape& shape) {
    if (shape.m % 8 != 0 || shape.k % 64 != 0) [[unlikely]] {
        fail_misuse(api, "isBasicBlock is set but the shape is ", shape.m, " x ", shape.k,
                    ": a basic block needs srcM a multiple of 8 and srcK a multiple of 64");
    }
}

// The tile's valid columns as floats.
template <typename T>
inline RowMatrix read_rows(const T* data, const SoftmaxShape& shape) {
    RowMatrix rows(shape.m, shape.valid);
    for (uint32_t r = 0; r < shape.m; ++r) {
        rows.row(r) = in(data + uint64_t(r) * shape.k, shape.valid).transpose();
    }
    return rows;
}

// Writes the valid columns; the padding columns are set to 0.
template <typename T>
inline void write_rows(T* data, const SoftmaxShape& shape, const RowMatrix& rows) {
    for (uint32_t r = 0; r < shape.m; ++r) {
        T* row = data + uint64_t(r) * shape.k;
        out(row, shape.valid, Eigen::ArrayXf(rows.row(r).transpose()));
        for (uint32_t c = shape.valid; c < shape.k; ++c) row[c] = T(0);
    }
}

template <typename U>
inline constexpr uint32_t reduced_per_row = 32 / sizeof(U);

// The elements a row's reduced value takes: its 32-byte block, or one element with
// SOFTMAX_OUTPUT_WITHOUT_BRC.
template <typename U>
inline constexpr uint32_t reduced_stride(const AscendC::SoftmaxConfig& config) {
    return config.mode == AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC ? 1 : reduced_per_row<U>;
}

// One value per row, repeated over the row's `per` elements (its 32-byte block by default).
template <typename U>
inline void write_reduced(U* data, const Eigen::ArrayXf& values, uint32_t per = reduced_per_row<U>) {
    for (Eigen::Index r = 0; r < values.size(); ++r) {
        out(data + r * per, per, Eigen::ArrayXf::Constant(per, values(r)));
    }
}
template <typename U>
inline Eigen::ArrayXf read_reduced(const U* data, uint32_t rows, uint32_t per = reduced_per_row<U>) {
    Eigen::ArrayXf values(rows);
    for (uint32_t r = 0; r < rows; ++r) values(r) = static_cast<float>(data[uint64_t(r) * per]);
    return values;
}

// exp(x - rowmax) and its statistics.
struct Exponentials {
    RowMatrix e;
    Eigen::ArrayXf max;
    Eigen::ArrayXf sum;
};
inline Exponentials exponentials(const RowMatrix& x) {
    Exponentials result;
    result.max = x.rowwise().maxCoeff();
    result.e = (x.colwise() - result.max).exp();
    result.sum = result.e.rowwise().sum();
    return result;
}

}  // namespace canopy::adv
