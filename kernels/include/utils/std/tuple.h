#pragma once
// AscendC::Std's tuple (CANN's utils/std/tuple.h): tuple, tuple_size, tuple_element, make_tuple,
// tie, get and ignore, the standard library's on a CPU.
#include <tuple>

namespace AscendC {
namespace Std {

using std::get;
using std::ignore;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;

}  // namespace Std
}  // namespace AscendC
