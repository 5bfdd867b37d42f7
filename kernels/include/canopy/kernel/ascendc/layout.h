#pragma once
// The part of CANN's tensor_api layouts that TransData's callers use: MakeShape / MakeStride build
// tuples of dimensions and strides, MakeLayout pairs them into a Layout (a shape with its strides;
// an empty stride means the compact row-major layout of the shape). Layout reads back its shape
// and strides (GetShape, GetStride) and its size (GetSize, the product of the dimensions).
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace AscendC {

#ifndef CANOPY_TENSOR_LAYOUT_DEFINED
#define CANOPY_TENSOR_LAYOUT_DEFINED
template <typename... Ts>
__aicore__ inline constexpr auto MakeShape(const Ts&... dims) {
    return std::tuple<Ts...>(dims...);
}
template <typename... Ts>
__aicore__ inline constexpr auto MakeStride(const Ts&... strides) {
    return std::tuple<Ts...>(strides...);
}

template <typename Shape, typename Stride>
struct Layout {
    constexpr Layout() = default;
    constexpr Layout(const Shape& shapeIn, const Stride& strideIn) : shape(shapeIn), stride(strideIn) {}
    constexpr const Shape& GetShape() const { return shape; }
    constexpr const Stride& GetStride() const { return stride; }
    static constexpr std::size_t rank = std::tuple_size_v<Shape>;
    // Dimension `i` as a 64-bit count.
    template <std::size_t i>
    constexpr int64_t Dim() const {
        return static_cast<int64_t>(std::get<i>(shape));
    }
    constexpr int64_t GetSize() const {
        return std::apply([](const auto&... dims) { return (int64_t(1) * ... * static_cast<int64_t>(dims)); }, shape);
    }
    Shape shape{};
    Stride stride{};
};

template <typename Shape, typename Stride>
__aicore__ inline constexpr auto MakeLayout(const Shape& shape, const Stride& stride) {
    return Layout<Shape, Stride>(shape, stride);
}
template <typename Shape>
__aicore__ inline constexpr auto MakeLayout(const Shape& shape) {
    return Layout<Shape, std::tuple<>>(shape, std::tuple<>());
}
#endif

}  // namespace AscendC
