// Built-in tasks (builtin_tasks.h): the reduce copy and the random number generator, computed on
// the CPU as one operation of their stream, and CANN's half-precision conversions.
#include "canopy/kernel_runtime/builtin_tasks.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/failure.h"

namespace canopy::builtin {

namespace {

// ---- CANN's half conversions

constexpr std::uint32_t half_mantissa_bits = 10;
constexpr std::uint32_t float_mantissa_bits = 23;
constexpr std::uint32_t largest_finite_half = 0x7bff;

float float_from_bits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::uint32_t bits_of(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// Drops `shift` low bits of `value`, rounding to nearest with ties to even.
std::uint64_t round_shift(std::uint64_t value, std::uint32_t shift) {
    const std::uint64_t kept = value >> shift;
    const std::uint64_t rest = value & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

}  // namespace

float half_to_float(std::uint16_t value) {
    const std::uint32_t sign = static_cast<std::uint32_t>(value & 0x8000u) << 16;
    const std::uint32_t exponent = (value >> half_mantissa_bits) & 0x1fu;
    std::uint32_t mantissa = value & 0x3ffu;
    if (exponent == 0) {
        if (mantissa == 0) return float_from_bits(sign);
        // A subnormal half is a normal float: shift its leading one into the hidden position.
        int normalized = 1 - 15 + 127;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --normalized;
        }
        mantissa &= 0x3ffu;
        return float_from_bits(sign | (static_cast<std::uint32_t>(normalized) << float_mantissa_bits) |
                               (mantissa << (float_mantissa_bits - half_mantissa_bits)));
    }
    // Exponent 31 included: CANN reads it as 2^16 (no infinities or NaNs).
    return float_from_bits(sign | ((exponent - 15 + 127) << float_mantissa_bits) |
                           (mantissa << (float_mantissa_bits - half_mantissa_bits)));
}

std::uint16_t float_to_half(float value) {
    const std::uint32_t bits = bits_of(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const std::uint32_t exponent = (bits >> float_mantissa_bits) & 0xffu;
    const std::uint32_t mantissa = bits & 0x7fffffu;
    // Infinities, NaNs and everything from 2^16 up saturate.
    if (exponent > 127 + 15) return static_cast<std::uint16_t>(sign | largest_finite_half);
    std::uint32_t magnitude;
    if (exponent >= 127 - 14) {
        // Normal range: rounding may carry into the exponent, up to 2^16, which saturates.
        magnitude = static_cast<std::uint32_t>(
            round_shift((static_cast<std::uint64_t>(exponent - 127 + 15) << float_mantissa_bits) | mantissa,
                        float_mantissa_bits - half_mantissa_bits));
        if (magnitude > largest_finite_half) magnitude = largest_finite_half;
    } else if (exponent == 0) {
        magnitude = 0;  // float subnormals are far below half the smallest half subnormal
    } else {
        // Subnormal half, in units of 2^-24: (1.mantissa) * 2^(exponent-127) is the 24-bit
        // significand shifted right by 126 - exponent; below 2^-25 everything rounds to zero.
        const std::uint32_t shift = 126 - exponent;
        magnitude = shift > 25 ? 0 : static_cast<std::uint32_t>(round_shift(mantissa | 0x800000u, shift));
    }
    return static_cast<std::uint16_t>(sign | magnitude);
}

std::size_t element_size(Element type) {
    switch (type) {
        case Element::i8: return 1;
        case Element::f16: case Element::bf16: case Element::i16: return 2;
        case Element::f32: case Element::i32: case Element::u32: return 4;
        default: return 8;  // i64, u64
    }
}

namespace {

// ---- bfloat16, computed in float

float bf16_to_float(std::uint16_t value) { return float_from_bits(static_cast<std::uint32_t>(value) << 16); }

std::uint16_t float_to_bf16(float value) {
    const std::uint32_t bits = bits_of(value);
    if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40);  // stays a quiet NaN
    const std::uint32_t rounding = 0x7fff + ((bits >> 16) & 1);  // nearest, ties to even
    return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

// ---- reduce

template <class T, class Op>
void reduce_elements(void* dst, const void* src, std::size_t count, Op combine) {
    auto* out = static_cast<T*>(dst);
    const auto* in = static_cast<const T*>(src);
    for (std::size_t i = 0; i < count; ++i) out[i] = combine(out[i], in[i]);
}

template <class T>
void reduce_typed(Combine kind, void* dst, const void* src, std::size_t count) {
    switch (kind) {
        case Combine::sum:
            // Integers wrap as the hardware's adders do; computed unsigned to stay defined.
            if constexpr (std::is_integral_v<T>) {
                using U = std::make_unsigned_t<T>;
                reduce_elements<T>(dst, src, count, [](T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); });
            } else {
                reduce_elements<T>(dst, src, count, [](T a, T b) { return a + b; });
            }
            break;
        case Combine::max: reduce_elements<T>(dst, src, count, [](T a, T b) { return std::max(a, b); }); break;
        default: reduce_elements<T>(dst, src, count, [](T a, T b) { return std::min(a, b); }); break;
    }
}

// Half types: each element combined in float and rounded back.
template <float (*ToFloat)(std::uint16_t), std::uint16_t (*FromFloat)(float)>
void reduce_half(Combine kind, void* dst, const void* src, std::size_t count) {
    auto* out = static_cast<std::uint16_t*>(dst);
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < count; ++i) {
        const float a = ToFloat(out[i]), b = ToFloat(in[i]);
        const float r = kind == Combine::sum ? a + b
                        : kind == Combine::max ? std::max(a, b)
                                                                   : std::min(a, b);
        out[i] = FromFloat(r);
    }
}

void reduce(Element type, Combine kind, void* dst, const void* src, std::size_t bytes) {
    switch (type) {
        case Element::f32: reduce_typed<float>(kind, dst, src, bytes / 4); break;
        case Element::i32: reduce_typed<std::int32_t>(kind, dst, src, bytes / 4); break;
        case Element::i16: reduce_typed<std::int16_t>(kind, dst, src, bytes / 2); break;
        case Element::i8: reduce_typed<std::int8_t>(kind, dst, src, bytes); break;
        case Element::f16: reduce_half<half_to_float, float_to_half>(kind, dst, src, bytes / 2); break;
        default: reduce_half<bf16_to_float, float_to_bf16>(kind, dst, src, bytes / 2); break;  // bf16
    }
}

// ---- random numbers

struct Philox {
    std::uint32_t key[2];
    std::uint32_t counter[4];

    // The next four 32-bit numbers; the counter moves on by one.
    std::array<std::uint32_t, 4> next() {
        std::uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]};
        std::uint32_t k[2] = {key[0], key[1]};
        for (int round = 0; round < 10; ++round) {
            const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c[0];
            const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * c[2];
            const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0];
            const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1];
            c[0] = n0;
            c[1] = static_cast<std::uint32_t>(p1);
            c[2] = n2;
            c[3] = static_cast<std::uint32_t>(p0);
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        for (int i = 0; i < 4 && ++counter[i] == 0; ++i) {
        }
        return {c[0], c[1], c[2], c[3]};
    }
};

class Numbers {
public:
    explicit Numbers(Philox philox) : philox_(philox) {}
    std::uint32_t next32() {
        if (used_ == 4) {
            block_ = philox_.next();
            used_ = 0;
        }
        return block_[used_++];
    }
    std::uint64_t next64() { return (std::uint64_t{next32()} << 32) | next32(); }
    // Uniform in [0, 1), 24 random bits.
    float unit() { return static_cast<float>(next32() >> 8) * (1.0f / 16777216.0f); }
    // Standard normal (Box-Muller).
    float normal() {
        const float u1 = (static_cast<float>(next32() >> 8) + 1.0f) * (1.0f / 16777216.0f);  // (0, 1]
        const float u2 = unit();
        return std::sqrt(-2.0f * std::log(u1)) * std::cos(6.28318530718f * u2);
    }
    const Philox& generator() const { return philox_; }

private:
    Philox philox_;
    std::array<std::uint32_t, 4> block_{};
    int used_ = 4;
};

// A distribution parameter as a double, read in the task's data type.
double typed_value(const RandomParameter& parameter, Element type) {
    std::uint64_t bits;
    parameter.read(&bits);
    switch (type) {
        case Element::f32: { float v; std::memcpy(&v, &bits, 4); return v; }
        case Element::f16: return half_to_float(static_cast<std::uint16_t>(bits));
        case Element::bf16: return bf16_to_float(static_cast<std::uint16_t>(bits));
        case Element::i32: return static_cast<std::int32_t>(bits);
        case Element::u32: return static_cast<std::uint32_t>(bits);
        case Element::i64: return static_cast<double>(static_cast<std::int64_t>(bits));
        case Element::i8: return static_cast<std::int8_t>(bits);
        case Element::i16: return static_cast<std::int16_t>(bits);
        default: return static_cast<double>(bits);  // u64
    }
}

void store_float(void* out, std::size_t index, Element type, float value) {
    if (type == Element::f32) {
        static_cast<float*>(out)[index] = value;
    } else {
        static_cast<std::uint16_t*>(out)[index] = type == Element::f16 ? float_to_half(value) : float_to_bf16(value);
    }
}

// Uniform integers in [low, high): the span's remainder bias is below 2^-32 for 32-bit spans.
template <class T>
void uniform_integers(Numbers& numbers, void* out, std::uint64_t count, const RandomParameter& low_parameter,
                      const RandomParameter& high_parameter) {
    T low, high;
    std::uint64_t bits;
    low_parameter.read(&bits);
    std::memcpy(&low, &bits, sizeof low);
    high_parameter.read(&bits);
    std::memcpy(&high, &bits, sizeof high);
    const std::uint64_t span = high > low ? static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) : 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t offset = span == 0 ? 0 : numbers.next64() % span;
        static_cast<T*>(out)[i] = static_cast<T>(static_cast<std::uint64_t>(low) + offset);
    }
}

void run(const RandomTask& task) {
    const auto& [type, distribution, first, second, seed, count, result, counter, result_capacity] = task;
    std::uint64_t offset[2];
    std::memcpy(offset, counter, sizeof offset);
    const std::uint64_t key = seed.unsigned_value();
    Philox philox{{static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)},
                  {static_cast<std::uint32_t>(offset[0]), static_cast<std::uint32_t>(offset[0] >> 32),
                   static_cast<std::uint32_t>(offset[1]), static_cast<std::uint32_t>(offset[1] >> 32)}};
    Numbers numbers(philox);
    const std::uint64_t n = count.unsigned_value();
    // A count read from device memory is only known now; it must fit the result as well.
    std::size_t needed;
    if (!task.result_bytes(n, needed) || needed > result_capacity) {
        throw engine::OperationError(ACL_ERROR_RT_PARAM_INVALID,
                                     "aclrtRandomNumAsync: randomNum " + std::to_string(n) +
                                         " numbers run past the end of randomResultAddr's allocation (" +
                                         std::to_string(result_capacity) + " bytes)");
    }
    switch (distribution) {
        case Distribution::dropout_bitmask: {
            // Bit i (LSB first) is 1 when element i is kept, with probability 1 - ratio.
            const double ratio = typed_value(first, type);
            auto* mask = static_cast<std::uint8_t*>(result);
            for (std::uint64_t i = 0; i < n; ++i) {
                if (i % 8 == 0) mask[i / 8] = 0;
                if (numbers.unit() >= ratio) mask[i / 8] = static_cast<std::uint8_t>(mask[i / 8] | (1u << (i % 8)));
            }
            break;
        }
        case Distribution::uniform:
            switch (type) {
                case Element::i32: uniform_integers<std::int32_t>(numbers, result, n, first, second); break;
                case Element::u32: uniform_integers<std::uint32_t>(numbers, result, n, first, second); break;
                case Element::i64: uniform_integers<std::int64_t>(numbers, result, n, first, second); break;
                case Element::u64: uniform_integers<std::uint64_t>(numbers, result, n, first, second); break;
                default: {
                    const auto low = static_cast<float>(typed_value(first, type));
                    const auto high = static_cast<float>(typed_value(second, type));
                    for (std::uint64_t i = 0; i < n; ++i) store_float(result, i, type, low + (high - low) * numbers.unit());
                }
            }
            break;
        default: {
            // Normal; the truncated normal redraws samples beyond two standard deviations.
            const bool truncated = distribution == Distribution::truncated_normal;
            const auto mean = static_cast<float>(typed_value(first, type));
            const auto stddev = static_cast<float>(typed_value(second, type));
            for (std::uint64_t i = 0; i < n; ++i) {
                float z = numbers.normal();
                while (truncated && std::fabs(z) > 2.0f) z = numbers.normal();
                store_float(result, i, type, mean + stddev * z);
            }
        }
    }
    const Philox& used = numbers.generator();
    offset[0] = used.counter[0] | (std::uint64_t{used.counter[1]} << 32);
    offset[1] = used.counter[2] | (std::uint64_t{used.counter[3]} << 32);
    std::memcpy(counter, offset, sizeof offset);
}

}  // namespace

void RandomParameter::read(void* out) const {
    std::uint64_t bits = 0;
    if (address) {
        const void* from;
        std::memcpy(&from, inline_bytes, sizeof from);
        std::memcpy(&bits, from, size);
    } else {
        std::memcpy(&bits, inline_bytes, size);
    }
    std::memcpy(out, &bits, sizeof bits);
}

std::uint64_t RandomParameter::unsigned_value() const {
    std::uint64_t bits;
    read(&bits);
    return bits;
}

bool RandomTask::result_bytes(std::uint64_t n, std::size_t& bytes) const {
    if (distribution == Distribution::dropout_bitmask) {
        bytes = n / 8 + (n % 8 != 0);
        return true;
    }
    return engine::detail::checked_mul(n, element_size(type), bytes);
}

engine::Operation reduce_operation(void* dst, const void* src, std::size_t bytes, Element type, Combine combine) {
    return engine::Operation{engine::OpKind::memcpy, bytes, nullptr, [dst, src, bytes, type, combine](engine::OpRun&) {
                                 reduce(type, combine, dst, src, bytes);
                             }};
}

engine::Operation random_operation(const RandomTask& task) {
    return engine::Operation{engine::OpKind::kernel, 1, "RandomNum",
                             [task = std::make_shared<const RandomTask>(task)](engine::OpRun&) { run(*task); }};
}

}  // namespace canopy::builtin
