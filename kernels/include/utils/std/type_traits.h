#pragma once
// AscendC::Std's type traits (CANN's utils/std/type_traits.h): on the NPU's compiler the C++
// standard library is not available to kernels, so CANN ships its own; on a CPU they are the
// standard library's. Using-declarations, so another header may declare the same names again.
#include <tuple>
#include <type_traits>

namespace AscendC {
namespace Std {

using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::is_function;
using std::is_function_v;
using std::is_integral;
using std::is_integral_v;
using std::is_lvalue_reference;
using std::is_lvalue_reference_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_rvalue_reference;
using std::is_rvalue_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;


// CANN's own traits, beside the standard ones.
template <typename T>
struct remove_cvref {
    using type = std::remove_cv_t<std::remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Args>
struct is_one_of : std::false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...>
    : std::conditional_t<std::is_same_v<T, Head>, std::true_type, is_one_of<T, Tail...>> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

template <typename T, T... Values>
struct is_one_of_value : std::false_type {};
template <typename T, T Value, T Head, T... Tail>
struct is_one_of_value<T, Value, Head, Tail...>
    : std::conditional_t<Value == Head, std::true_type, is_one_of_value<T, Value, Tail...>> {};
template <typename T, T... Values>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Values...>::value;

// Whether T (through references and const) is integral_constant<_, n>.
template <auto n, typename T>
struct is_constant : std::false_type {};
template <auto n, typename T>
struct is_constant<n, const T> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, std::integral_constant<T, v>> : std::bool_constant<v == n> {};

// Whether std::tuple_size<T> is defined (Std::tuple and other tuple-like types).
template <typename T, typename = void>
struct is_tuple : std::false_type {};
template <typename T>
struct is_tuple<T, std::void_t<decltype(std::tuple_size<T>::value)>> : std::true_type {};
template <typename T>
inline constexpr bool is_tuple_v = is_tuple<T>::value;

}  // namespace Std
}  // namespace AscendC
