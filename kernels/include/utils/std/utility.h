#pragma once
// AscendC::Std's utilities (CANN's utils/std/utility.h): forward, move, declval and index sequences.
// On a CPU they are the standard library's, except that Std::make_index_sequence keeps CANN's limit
// of 64, so that code which would not compile for the NPU does not compile here either.
#include <cstddef>
#include <utility>

namespace AscendC {
namespace Std {

using std::declval;
using std::forward;
using std::move;

template <class T, T... Ns>
using IntegerSequence = std::integer_sequence<T, Ns...>;
template <std::size_t... Idx>
using index_sequence = std::index_sequence<Idx...>;

namespace detail {
inline constexpr std::size_t max_integer_sequence_size = 64;
template <class T, T N>
struct CheckedIntegerSequence {
    static_assert(0 <= N && static_cast<std::size_t>(N) <= max_integer_sequence_size,
                  "Std::make_index_sequence must be within [0,64].");
    using type = std::make_integer_sequence<T, (0 <= N ? N : 0)>;
};
}  // namespace detail

template <class T, T N>
using MakeIntegerSequence = typename detail::CheckedIntegerSequence<T, N>::type;
template <std::size_t N>
using make_index_sequence = MakeIntegerSequence<std::size_t, N>;

}  // namespace Std
}  // namespace AscendC
