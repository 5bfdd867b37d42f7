#pragma once
// Built-in tasks: the device's element-wise reduce copy (aclrtReduceAsync, an SDMA copy that
// combines instead of overwriting) and its random number generator (aclrtRandomNumAsync). Each is
// one operation of its stream, computed on the CPU; the C API checks the arguments and the device
// memory, then enqueues the operation made here. Also CANN's half-precision conversions, which the
// reduce uses and aclFloat16ToFloat / aclFloatToFloat16 answer.
#include <cstddef>
#include <cstdint>

#include "canopy/engine/operation.h"

namespace canopy::builtin {

// CANN's conversions saturate rather than follow IEEE at the edges: a float too large for a half,
// an infinity or a NaN becomes the largest finite half of its sign (+-65504), and a half whose
// exponent is all ones is read as if that exponent were an ordinary one (infinity is 65536, NaNs
// are 65536 times 1.mantissa). Finite values convert exactly, rounding to nearest, ties to even,
// through the subnormals.
float half_to_float(std::uint16_t value);
std::uint16_t float_to_half(float value);

// The element types of the built-in tasks.
enum class Element { f32, f16, bf16, i8, i16, i32, u32, i64, u64 };
std::size_t element_size(Element type);

// ---- reduce

enum class Combine { sum, max, min };

// dst[i] = combine(dst[i], src[i]) over `bytes` bytes of elements of `type` (f32, f16, bf16, i8,
// i16 or i32). Integers wrap as the hardware's adders do; half types combine in float.
engine::Operation reduce_operation(void* dst, const void* src, std::size_t bytes, Element type, Combine combine);

// ---- random numbers

enum class Distribution { dropout_bitmask, uniform, normal, truncated_normal };

// A parameter given inline or as a device address holding it (isAddr); read when the task runs.
struct RandomParameter {
    bool address = false;
    std::uint8_t inline_bytes[8] = {};  // the value, or the address
    std::uint8_t size = 0;

    void read(void* out) const;  // 8 bytes, the value zero-extended
    std::uint64_t unsigned_value() const;
};

// The generator is counter-based (Philox 4x32-10, keyed by the seed, counting from the 128-bit
// counter in device memory, which each task advances past the numbers it used), so a seed and a
// counter give the same numbers every time and consecutive tasks sharing a counter give fresh ones.
// The numbers are not the device's.
struct RandomTask {
    Element type = Element::f32;
    Distribution distribution = Distribution::uniform;
    RandomParameter first, second;  // ratio; min and max; mean and stddev
    RandomParameter seed, count;
    void* result = nullptr;
    void* counter = nullptr;          // 16 bytes of device memory
    std::size_t result_capacity = 0;  // bytes of the result's allocation from result on

    // The bytes n numbers take; false when they overflow.
    bool result_bytes(std::uint64_t n, std::size_t& bytes) const;
};

// The task as an operation (a kernel named "RandomNum"). A count read from device memory that runs
// past result_capacity fails the operation with ACL_ERROR_RT_PARAM_INVALID.
engine::Operation random_operation(const RandomTask& task);

}  // namespace canopy::builtin
