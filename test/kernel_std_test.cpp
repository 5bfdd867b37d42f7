// AscendC::Std (CANN's utils/std/*.h), which kernel and tiling code uses in place of the standard
// library: the traits, the tuple, the index sequences and CANN's own arithmetic helpers.
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <doctest/doctest.h>

#include "kernel_operator.h"

namespace Std = AscendC::Std;

static_assert(std::is_same_v<Std::make_index_sequence<3>, std::index_sequence<0, 1, 2>>);
static_assert(std::is_same_v<Std::remove_cvref_t<const int&>, int>);
static_assert(Std::is_one_of_v<float, int8_t, float> && !Std::is_one_of_v<double, int8_t, float>);
static_assert(Std::is_one_of_value_v<int, 3, 1, 2, 3> && !Std::is_one_of_value_v<int, 4, 1, 2, 3>);
static_assert(Std::is_constant<3, const std::integral_constant<int, 3>&>::value);
static_assert(!Std::is_constant<4, std::integral_constant<int, 3>>::value);
static_assert(Std::is_tuple_v<Std::tuple<int, float>> && !Std::is_tuple_v<int>);

TEST_CASE("Std::min and max compare two types and return the conditional's type") {
    constexpr auto smaller = Std::min(3, 4.5);
    static_assert(std::is_same_v<std::remove_const_t<decltype(smaller)>, double>);
    CHECK(smaller == 3.0);
    CHECK(Std::max(int8_t(3), 7L) == 7L);
}

TEST_CASE("Std::ceil_division, ceil_align and divide") {
    static_assert(Std::ceil_division(10u, 8u) == 2u);
    CHECK(Std::ceil_align(10u, 8u) == 16u);
    CHECK(Std::ceil_align(16u, 8u) == 16u);
    CHECK(Std::divide(9, 2) == 4);
}

TEST_CASE("Std::abs and sqrt on the types the scalar unit supports") {
    CHECK(Std::abs(int8_t(-5)) == 5);
    CHECK(Std::abs(int64_t(-1) << 40) == int64_t(1) << 40);
    CHECK(Std::abs(-2.5f) == 2.5f);
    CHECK(Std::sqrt(16.0f) == 4.0f);
    CHECK(Std::sqrt(int64_t(81)) == 9);
}

TEST_CASE("Std::tuple, get, tie and forward") {
    auto pair = Std::make_tuple(1, 2.5f);
    static_assert(Std::tuple_size<decltype(pair)>::value == 2);
    int first = 0;
    float second = 0;
    Std::tie(first, second) = pair;
    CHECK(first == 1);
    CHECK(second == 2.5f);
    CHECK(Std::get<1>(Std::forward<decltype(pair)>(pair)) == 2.5f);
    Std::tie(first, Std::ignore) = Std::make_tuple(7, 0.0f);
    CHECK(first == 7);
}

namespace {
struct Tiling {
    uint32_t m;
    uint16_t n;
    uint16_t k;
};
constexpr uint8_t tiling_bytes[] = {0x00, 0x02, 0x00, 0x00, 0x80, 0x00, 0x40, 0x00};
}  // namespace

TEST_CASE("convert_from_bytes turns a constexpr byte array into a constexpr structure") {
    constexpr Tiling tiling = convert_from_bytes<Tiling>(tiling_bytes);
    static_assert(tiling.m == 512 && tiling.n == 128 && tiling.k == 64);
    CHECK(tiling.m == 512);
}
