#pragma once
// The row arithmetic the normalizations share, as Eigen expressions over UB tiles: rows of a tile
// read into double (through float, the precision the vector unit computes half in), row
// statistics over the first `n` columns rounded to float as the vector unit holds them, and
// results stored back rounded once to the element type.
#include <Eigen/Core>
#include <cstdint>

namespace canopy::adv {

using RowsD = Eigen::Array<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ColD = Eigen::Array<double, Eigen::Dynamic, 1>;
using LineD = Eigen::Array<double, 1, Eigen::Dynamic>;

template <typename T>
using TileMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
template <typename T>
using ConstTileMap =
    Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;

// `rows` rows of `cols` elements, `stride` apart, in double.
template <typename T>
inline RowsD load_rows(const T* data, int64_t rows, int64_t cols, int64_t stride) {
    return ConstTileMap<T>(data, rows, cols, Eigen::OuterStride<>(stride))
        .template cast<float>()
        .template cast<double>();
}
// One row of `cols` elements in double.
template <typename T>
inline LineD load_line(const T* data, int64_t cols) {
    return Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>(data, cols)
        .template cast<float>()
        .template cast<double>();
}
// `values` into rows `stride` apart, each rounded to float and then to T.
template <typename T>
inline void store_rows(T* data, const RowsD& values, int64_t stride) {
    TileMap<T>(data, values.rows(), values.cols(), Eigen::OuterStride<>(stride)) =
        values.template cast<float>().template cast<T>();
}
template <typename T>
inline void store_column(T* data, const ColD& values) {
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>(data, values.size()) =
        values.template cast<float>().template cast<T>();
}

// Each row's mean and (biased) variance over its first `n` columns, rounded to float.
inline void row_mean_variance(const RowsD& x, int64_t n, ColD& mean, ColD& variance) {
    const auto valid = x.leftCols(n);
    const ColD exact_mean = valid.rowwise().sum() / double(n);
    variance = ((valid.colwise() - exact_mean).square().rowwise().sum() / double(n)).cast<float>().cast<double>();
    mean = exact_mean.cast<float>().cast<double>();
}

}  // namespace canopy::adv
