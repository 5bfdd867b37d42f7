#pragma once
// AscendC::Std's min and max (CANN's utils/std/algorithm.h). Unlike std::min and std::max they take
// two types and return the type the comparison's conditional yields.
namespace AscendC {
namespace Std {

template <typename T, typename U>
inline constexpr auto min(const T& src0, const U& src1) {
    return (src0 < src1) ? src0 : src1;
}

template <typename T, typename U>
inline constexpr auto max(const T& src0, const U& src1) {
    return (src0 > src1) ? src0 : src1;
}

}  // namespace Std
}  // namespace AscendC
