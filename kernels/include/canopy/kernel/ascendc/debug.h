#pragma once
// Kernel-side debugging: assert / ascendc_assert, Trap, DumpTensor, KERNEL_LOG. On the NPU a
// failing assert prints its condition and traps the core: the launch fails and the host program
// goes on. Here it prints the same line and fails the launch with ACL_ERROR_RT_AICORE_EXCEPTION, the
// code CANN's samples show for it (the next synchronize of its stream returns it); outside a kernel
// (host code in the same .asc file) it is the C library's assert. Trap() fails the launch with
// ACL_ERROR_RT_AICORE_TRAP_EXCEPTION.
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/printf.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc {

inline constexpr int kTrap = ACL_ERROR_RT_AICORE_TRAP_EXCEPTION;

inline bool in_kernel() { return current_block().kernel != nullptr; }

// A failed assert: `message` is the formatted text of its optional fmt and arguments.
[[noreturn, gnu::cold, gnu::noinline]] inline void assert_failed(const char* expression, const char* file,
                                                                  unsigned line, const char* function,
                                                                  const std::string& message) {
    // CANN's line: "[ASSERT] file:line: : Assertion `expr' failed." and the assert's own message.
    const std::string report = std::string("[ASSERT] ") + file + ":" + std::to_string(line) + ": : Assertion `" +
                               expression + "' failed. " + message;
    if (!in_kernel()) {
        std::fprintf(stderr, "%s (in %s)\n", report.c_str(), function);
        std::abort();
    }
    print_from_block(report);
    raise(ACL_ERROR_RT_AICORE_EXCEPTION, "assert", report.substr(9));
}

template <class... Args>
inline std::string assert_message(const char* fmt, Args&&... args) {
    const PrintfArgument arguments[sizeof...(Args) + 1] = {make_printf_argument(std::decay_t<Args>(args))...,
                                                           PrintfArgument{}};
    return format_printf(fmt, arguments, sizeof...(Args));
}

inline std::string assert_message() { return {}; }

template <typename T>
constexpr const char* dump_type_name() {
    if constexpr (std::is_same_v<T, half>) return "float16";
    else if constexpr (std::is_same_v<T, Eigen::bfloat16>) return "bfloat16";
    else if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, double>) return "float64";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else return "unknown";
}

template <typename T>
inline void append_dump_value(std::string& out, T value) {
    char text[64];
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, Eigen::bfloat16> || std::is_floating_point_v<T>) {
        std::snprintf(text, sizeof text, "%f", static_cast<double>(static_cast<float>(value)));
    } else if constexpr (std::is_signed_v<T>) {
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
    } else {
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(value));
    }
    out += text;
}

template <typename T>
inline void dump_elements(const T* data, uint32_t desc, uint64_t offset, const char* position, uint32_t dumpSize) {
    std::string out = "DumpTensor: desc=" + std::to_string(desc) + ", addr=" + std::to_string(offset) +
                      ", data_type=" + dump_type_name<T>() + ", position=" + position +
                      ", dump_size=" + std::to_string(dumpSize) + "\n[";
    for (uint32_t i = 0; i < dumpSize; ++i) {
        if (i != 0) out += ", ";
        append_dump_value(out, data[i]);
    }
    out += "]";
    print_from_block(out);
}

}  // namespace canopy::kernel::ascendc

// assert(expr) and assert(expr, fmt, args...), as asc_assert.h defines them; NDEBUG removes them.
#define CANOPY_ASSERT_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define CANOPY_ASSERT_ARITY(...) CANOPY_ASSERT_PICK(__VA_ARGS__, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0)
#define CANOPY_ASSERT_JOIN(a, b) a##b
#define CANOPY_ASSERT_SELECT(n) CANOPY_ASSERT_JOIN(CANOPY_ASSERT_, n)
#define CANOPY_ASSERT_1(expr)                                                                                       \
    (static_cast<bool>(expr) ? void(0)                                                                              \
                             : ::canopy::kernel::ascendc::assert_failed(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__, \
                                                                         std::string()))
#define CANOPY_ASSERT_2(expr, ...)                                                                                  \
    (static_cast<bool>(expr) ? void(0)                                                                              \
                             : ::canopy::kernel::ascendc::assert_failed(                                           \
                                   #expr, __FILE__, __LINE__, __PRETTY_FUNCTION__,                                  \
                                   ::canopy::kernel::ascendc::assert_message(__VA_ARGS__)))

#undef assert
#undef ascendc_assert
#if defined(NDEBUG) || (defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0)
#define assert(...) static_cast<void>(0)
#define ascendc_assert(...) static_cast<void>(0)
#else
#define assert(...) CANOPY_ASSERT_SELECT(CANOPY_ASSERT_ARITY(__VA_ARGS__))(__VA_ARGS__)
#define ascendc_assert(...) CANOPY_ASSERT_SELECT(CANOPY_ASSERT_ARITY(__VA_ARGS__))(__VA_ARGS__)
#endif

namespace AscendC {

enum class LogLevel : uint8_t {
    KERNEL_DEBUG = 0,
    KERNEL_INFO = 1,
    KERNEL_WARN = 2,
    KERNEL_ERROR = 3,
};

// Stops the core: the launch fails with the trap exception.
__aicore__ inline void Trap() {
    canopy::kernel::raise(canopy::kernel::ascendc::kTrap, "Trap", "the kernel called Trap()");
}

// Prints `dumpSize` elements of the tensor. The dump waits for every pipe first (PIPE_ALL), as
// the NPU's dump does, so it sees what the kernel's instructions wrote.
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
    using namespace canopy::kernel::ascendc;
    require_elements(tensor, dumpSize, "DumpTensor", "tensor");
    canopy::kernel::pipe_barrier_all();
    const auto* base = local_memory(tensor.memory()).base;
    const uint64_t offset = base ? uint64_t(reinterpret_cast<const std::byte*>(tensor.landed_address()) - base) : 0;
    dump_elements(tensor.landed_address(), desc, offset, HardwareName(tensor.memory()), dumpSize);
}

template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
    const T* data = tensor.CheckedSpan(0, dumpSize, false, "DumpTensor");
    canopy::kernel::ascendc::dump_elements(data, desc, reinterpret_cast<uintptr_t>(data), "GM", dumpSize);
}

}  // namespace AscendC

// The C-style dumps of a raw address in one memory (utils/debug/asc_dump.h), printed as DumpTensor
// prints; the address's offset in its memory is not known from a raw pointer, so addr is the
// pointer's value.
namespace __asc_aicore {

template <typename T>
__aicore__ inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size) {
    canopy::kernel::ascendc::dump_elements(input, desc, reinterpret_cast<uintptr_t>(input), "GM", dump_size);
}

template <typename T>
__aicore__ inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size) {
    canopy::kernel::pipe_barrier_all();
    canopy::kernel::ascendc::dump_elements(input, desc, reinterpret_cast<uintptr_t>(input), "UB", dump_size);
}

template <typename T>
__aicore__ inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size) {
    canopy::kernel::pipe_barrier_all();
    canopy::kernel::ascendc::dump_elements(input, desc, reinterpret_cast<uintptr_t>(input), "L1", dump_size);
}

template <typename T>
__aicore__ inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size) {
    canopy::kernel::pipe_barrier_all();
    canopy::kernel::ascendc::dump_elements(input, desc, reinterpret_cast<uintptr_t>(input), "L0C", dump_size);
}

}  // namespace __asc_aicore

using namespace __asc_aicore;

// KERNEL_LOG(KERNEL_ERROR, fmt, args...): a line naming the level and the block, as CANN's CPU
// debug log prints it.
#define KERNEL_LOG(level, format, ...) \
    ::canopy::kernel::ascendc::kernel_log(#level, ::canopy::kernel::ascendc::assert_message(format, ##__VA_ARGS__))

namespace canopy::kernel::ascendc {

inline void kernel_log(const char* level, const std::string& message) {
    std::string text = std::string("[") + (std::string(level).rfind("KERNEL_", 0) == 0 ? level + 7 : level) + "] " +
                       message;
    if (in_kernel()) print_from_block(text);
    else std::fprintf(stderr, "%s\n", text.c_str());
}

}  // namespace canopy::kernel::ascendc
