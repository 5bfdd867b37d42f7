// Built-in tasks: the device's element-wise reduce copy (aclrtReduceAsync, an SDMA copy that
// combines instead of overwriting) and its random number generator (aclrtRandomNumAsync). Both run
// as one operation of their stream, computed on the CPU. The generator is counter-based (Philox
// 4x32-10, keyed by the seed, counting from the 128-bit counter in device memory, which each task
// advances past the numbers it used), so a seed and a counter give the same numbers every time
// and consecutive tasks sharing a counter give fresh ones. The numbers are not the device's.
#include <algorithm>
#include <cmath>
#include <limits>

#include "api.h"
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"

namespace canopy::api {

namespace {

// ---- element types computed in float

float bf16_to_float(std::uint16_t value) {
    const std::uint32_t bits = static_cast<std::uint32_t>(value) << 16;
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

std::uint16_t float_to_bf16(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40);  // stays a quiet NaN
    const std::uint32_t rounding = 0x7fff + ((bits >> 16) & 1);  // nearest, ties to even
    return static_cast<std::uint16_t>((bits + rounding) >> 16);
}

// ---- device memory checks

// [pointer, pointer + bytes) must be device memory of `device`.
// Returns the bytes of the allocation from pointer on.
std::size_t check_device_range(State& state, const void* pointer, std::size_t bytes, const engine::Device& device,
                               const char* argument) {
    const std::optional<engine::Allocation> allocation = allocation_of(state, pointer, argument);
    if (!allocation || allocation->kind != engine::MemoryKind::device)
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is not device memory from aclrtMalloc");
    if (allocation->device != &device) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + " is memory of device " +
                                          std::to_string(allocation->device->id()) + ", not of the stream's device " +
                                          std::to_string(device.id()));
    }
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(pointer) - allocation->base;
    if (!engine::detail::fits(offset, bytes, allocation->size)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + describe(pointer) + ": " + std::to_string(bytes) +
                                          " bytes at offset " + std::to_string(offset) +
                                          " run past the end of its allocation of " + std::to_string(allocation->size) + " bytes");
    }
    return allocation->size - offset;
}

// ---- reduce

template <class T, class Combine>
void reduce_elements(void* dst, const void* src, std::size_t count, Combine combine) {
    auto* out = static_cast<T*>(dst);
    const auto* in = static_cast<const T*>(src);
    for (std::size_t i = 0; i < count; ++i) out[i] = combine(out[i], in[i]);
}

template <class T>
void reduce_typed(int kind, void* dst, const void* src, std::size_t count) {
    switch (kind) {
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
            // Integers wrap as the hardware's adders do; computed unsigned to stay defined.
            if constexpr (std::is_integral_v<T>) {
                using U = std::make_unsigned_t<T>;
                reduce_elements<T>(dst, src, count, [](T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); });
            } else {
                reduce_elements<T>(dst, src, count, [](T a, T b) { return a + b; });
            }
            break;
        case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: reduce_elements<T>(dst, src, count, [](T a, T b) { return std::max(a, b); }); break;
        default: reduce_elements<T>(dst, src, count, [](T a, T b) { return std::min(a, b); }); break;
    }
}

// Half types: each element combined in float and rounded back.
template <float (*ToFloat)(std::uint16_t), std::uint16_t (*FromFloat)(float)>
void reduce_half(int kind, void* dst, const void* src, std::size_t count) {
    auto* out = static_cast<std::uint16_t*>(dst);
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < count; ++i) {
        const float a = ToFloat(out[i]), b = ToFloat(in[i]);
        const float r = kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM ? a + b
                        : kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX ? std::max(a, b)
                                                                   : std::min(a, b);
        out[i] = FromFloat(r);
    }
}

float fp16_to_float(std::uint16_t value) { return aclFloat16ToFloat(value); }
std::uint16_t float_to_fp16(float value) { return aclFloatToFloat16(value); }

void reduce(int type, int kind, void* dst, const void* src, std::size_t bytes) {
    switch (type) {
        case ACL_FLOAT: reduce_typed<float>(kind, dst, src, bytes / 4); break;
        case ACL_INT32: reduce_typed<std::int32_t>(kind, dst, src, bytes / 4); break;
        case ACL_INT16: reduce_typed<std::int16_t>(kind, dst, src, bytes / 2); break;
        case ACL_INT8: reduce_typed<std::int8_t>(kind, dst, src, bytes); break;
        case ACL_FLOAT16: reduce_half<fp16_to_float, float_to_fp16>(kind, dst, src, bytes / 2); break;
        default: reduce_half<bf16_to_float, float_to_bf16>(kind, dst, src, bytes / 2); break;  // ACL_BF16
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

// A parameter given inline or, with isAddr, as a device address holding it; read when the task runs.
struct Parameter {
    bool address;
    std::uint8_t inline_bytes[8];
    std::uint8_t size;

    void read(void* out) const {
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
    std::uint64_t unsigned_value() const {
        std::uint64_t bits;
        read(&bits);
        return bits;
    }
};

Parameter parameter(State& state, const aclrtRandomParaInfo& info, const char* argument, std::size_t expected_size) {
    if (info.isAddr > 1) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".isAddr " + std::to_string(info.isAddr) + " must be 0 or 1");
    if (info.size == 0 || info.size > 8 || (expected_size != 0 && info.size != expected_size)) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".size " + std::to_string(info.size) +
                                          (expected_size ? " must be " + std::to_string(expected_size) : std::string(" must be 1 to 8")));
    }
    Parameter result{info.isAddr == 1, {}, info.size};
    std::memcpy(result.inline_bytes, info.valueOrAddr, sizeof result.inline_bytes);
    if (result.address) {
        void* address;
        std::memcpy(&address, info.valueOrAddr, sizeof address);
        require(address, (std::string(argument) + ".valueOrAddr").c_str());
        if (!allocation_of(state, address, (std::string(argument) + ".valueOrAddr").c_str()))
            fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + ".valueOrAddr " + describe(address) + " is not device memory");
    }
    return result;
}

// A distribution parameter as a double, read in the task's data type.
double typed_value(const Parameter& parameter, int type) {
    std::uint64_t bits;
    parameter.read(&bits);
    switch (type) {
        case ACL_FLOAT: { float v; std::memcpy(&v, &bits, 4); return v; }
        case ACL_FLOAT16: return aclFloat16ToFloat(static_cast<std::uint16_t>(bits));
        case ACL_BF16: return bf16_to_float(static_cast<std::uint16_t>(bits));
        case ACL_INT32: return static_cast<std::int32_t>(bits);
        case ACL_UINT32: return static_cast<std::uint32_t>(bits);
        case ACL_INT64: return static_cast<double>(static_cast<std::int64_t>(bits));
        default: return static_cast<double>(bits);  // ACL_UINT64
    }
}

std::size_t random_type_size(int type) {
    switch (type) {
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_FLOAT16: case ACL_BF16: return 2;
        case ACL_INT64: case ACL_UINT64: return 8;
        default:
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->dataType " + std::to_string(type) +
                                              " is not ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, ACL_FLOAT16 or ACL_FLOAT");
    }
}

void store_float(void* out, std::size_t index, int type, float value) {
    if (type == ACL_FLOAT) {
        static_cast<float*>(out)[index] = value;
    } else {
        static_cast<std::uint16_t*>(out)[index] = type == ACL_FLOAT16 ? aclFloatToFloat16(value) : float_to_bf16(value);
    }
}

// Uniform integers in [low, high): the span's remainder bias is below 2^-32 for 32-bit spans.
template <class T>
void uniform_integers(Numbers& numbers, void* out, std::uint64_t count, const Parameter& low_parameter,
                      const Parameter& high_parameter) {
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

struct RandomTask {
    int type;
    int function;
    Parameter first, second;  // ratio; min and max; mean and stddev
    Parameter seed, count;
    void* result;
    void* counter;
    std::size_t result_capacity = 0;  // bytes of the result's allocation from result on

    // The bytes n numbers take; false when they overflow.
    bool result_bytes(std::uint64_t n, std::size_t& bytes) const {
        if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
            bytes = n / 8 + (n % 8 != 0);
            return true;
        }
        return engine::detail::checked_mul(n, random_type_size(type), bytes);
    }

    void run() const {
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
        if (!result_bytes(n, needed) || needed > result_capacity) {
            throw engine::OperationError(ACL_ERROR_RT_PARAM_INVALID,
                                         "aclrtRandomNumAsync: randomNum " + std::to_string(n) +
                                             " numbers run past the end of randomResultAddr's allocation (" +
                                             std::to_string(result_capacity) + " bytes)");
        }
        switch (function) {
            case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
                // Bit i (LSB first) is 1 when element i is kept, with probability 1 - ratio.
                const double ratio = typed_value(first, type);
                auto* mask = static_cast<std::uint8_t*>(result);
                for (std::uint64_t i = 0; i < n; ++i) {
                    if (i % 8 == 0) mask[i / 8] = 0;
                    if (numbers.unit() >= ratio) mask[i / 8] = static_cast<std::uint8_t>(mask[i / 8] | (1u << (i % 8)));
                }
                break;
            }
            case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
                switch (type) {
                    case ACL_INT32: uniform_integers<std::int32_t>(numbers, result, n, first, second); break;
                    case ACL_UINT32: uniform_integers<std::uint32_t>(numbers, result, n, first, second); break;
                    case ACL_INT64: uniform_integers<std::int64_t>(numbers, result, n, first, second); break;
                    case ACL_UINT64: uniform_integers<std::uint64_t>(numbers, result, n, first, second); break;
                    default: {
                        const auto low = static_cast<float>(typed_value(first, type));
                        const auto high = static_cast<float>(typed_value(second, type));
                        for (std::uint64_t i = 0; i < n; ++i) store_float(result, i, type, low + (high - low) * numbers.unit());
                    }
                }
                break;
            default: {
                // Normal; the truncated normal redraws samples beyond two standard deviations.
                const bool truncated = function == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
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
};

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
    return call("aclrtReduceAsync", [&] {
        require(dst, "dst");
        require(src, "src");
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        const int element = raw_value(type);
        switch (element) {
            case ACL_FLOAT: case ACL_FLOAT16: case ACL_BF16: case ACL_INT8: case ACL_INT16: case ACL_INT32: break;
            case ACL_INT4: case ACL_UINT8: case ACL_UINT16: case ACL_UINT32:
                fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "type " + std::to_string(element) +
                                                           ": the Atlas A2 reduce supports int8, int16, int32, fp16, fp32 and bf16 only");
            default: fail(ACL_ERROR_INVALID_PARAM, "type " + std::to_string(element) + " cannot be reduced");
        }
        const int operation = raw_value(kind);
        if (operation == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
            fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "kind ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is supported only on STARS hardware, not on the Atlas A2");
        }
        if (operation < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || operation > ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN)
            fail(ACL_ERROR_INVALID_PARAM, "kind " + std::to_string(operation) + " is not an aclrtReduceKind");
        const std::size_t element_size = aclDataTypeSize(type);
        if (count % element_size != 0) {
            fail(ACL_ERROR_INVALID_PARAM, "count " + std::to_string(count) + " bytes is not a whole number of " +
                                              std::to_string(element_size) + "-byte elements");
        }
        engine::Stream& on = target_stream(s, stream, "stream");
        if (count == 0) return;
        check_device_range(s, dst, count, on.device(), "dst");
        check_device_range(s, src, count, on.device(), "src");
        on.enqueue(engine::Operation{engine::OpKind::memcpy, count, nullptr,
                                     [dst, src, count, element, operation](engine::OpRun&) {
                                         reduce(element, operation, dst, src, count);
                                     }});
    });
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve) {
    return call("aclrtRandomNumAsync", [&] {
        require(taskInfo, "taskInfo");
        if (reserve) fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
        State& s = state();
        const int type = raw_value(taskInfo->dataType);
        const int function = raw_value(taskInfo->randomNumFuncParaInfo.funcType);
        if (function < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || function > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->randomNumFuncParaInfo.funcType " + std::to_string(function) +
                                              " is not an aclrtRandomNumFuncType");
        }
        const std::size_t size = random_type_size(type);
        const bool integral = type == ACL_INT32 || type == ACL_UINT32 || type == ACL_INT64 || type == ACL_UINT64;
        if (integral && function != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
            fail(ACL_ERROR_INVALID_PARAM, "taskInfo->dataType " + std::to_string(type) +
                                              ": integer types are for the uniform distribution only");
        }
        require(taskInfo->randomResultAddr, "taskInfo->randomResultAddr");
        require(taskInfo->randomCounterAddr, "taskInfo->randomCounterAddr");
        const auto& parameters = taskInfo->randomNumFuncParaInfo.paramInfo;
        RandomTask task{type, function, {}, {}, {}, {}, taskInfo->randomResultAddr, taskInfo->randomCounterAddr};
        if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
            task.first = parameter(s, parameters.dropoutBitmaskInfo.dropoutRation, "dropoutRation", size);
        } else if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
            task.first = parameter(s, parameters.uniformDisInfo.min, "min", size);
            task.second = parameter(s, parameters.uniformDisInfo.max, "max", size);
        } else {
            task.first = parameter(s, parameters.normalDisInfo.mean, "mean", size);
            task.second = parameter(s, parameters.normalDisInfo.stddev, "stddev", size);
        }
        task.seed = parameter(s, taskInfo->randomSeed, "randomSeed", 0);
        task.count = parameter(s, taskInfo->randomNum, "randomNum", 0);
        engine::Stream& on = target_stream(s, stream, "stream");
        check_device_range(s, task.counter, 16, on.device(), "taskInfo->randomCounterAddr");
        task.result_capacity = check_device_range(s, task.result, 0, on.device(), "taskInfo->randomResultAddr");
        if (!task.count.address) {
            const std::uint64_t n = task.count.unsigned_value();
            std::size_t bytes;
            if (!task.result_bytes(n, bytes)) {
                fail(ACL_ERROR_INVALID_PARAM, "taskInfo->randomNum " + std::to_string(n) + " numbers of " +
                                                  std::to_string(size) + " bytes overflow size_t");
            }
            check_device_range(s, task.result, bytes, on.device(), "taskInfo->randomResultAddr");
        }
        on.enqueue(engine::Operation{engine::OpKind::kernel, 1, "RandomNum",
                                     [task = std::make_shared<const RandomTask>(task)](engine::OpRun&) { task->run(); }});
    });
}

}  // extern "C"
