#pragma once
// AscendC::printf from a kernel: every line is prefixed with the block that printed it, and a block's
// output goes out in one fwrite under the stdout lock, so lines of concurrently running blocks never
// interleave. Like the NPU's printf (which records each argument with its type), arguments are
// converted to what each conversion asks for: `%d` with an int64_t, `%u` with GetBlockIdx() or `%f`
// with a half are all well defined.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include <Eigen/Core>

#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel::ascendc {

struct PrintfArgument {
    enum class Kind { signed_integer, unsigned_integer, floating, pointer, string };
    Kind kind = Kind::signed_integer;
    long long signed_value = 0;
    unsigned long long unsigned_value = 0;
    double floating_value = 0;
    const void* pointer_value = nullptr;
};

template <typename T>
PrintfArgument make_printf_argument(const T& value) {
    using Kind = PrintfArgument::Kind;
    PrintfArgument argument;
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, Eigen::bfloat16> ||
                  std::is_floating_point_v<T>) {
        argument.kind = Kind::floating;
        argument.floating_value = static_cast<double>(static_cast<float>(value));
    } else if constexpr (std::is_enum_v<T>) {
        argument.kind = Kind::signed_integer;
        argument.signed_value = static_cast<long long>(value);
    } else if constexpr (std::is_integral_v<T>) {
        if constexpr (std::is_signed_v<T>) {
            argument.kind = Kind::signed_integer;
            argument.signed_value = value;
        } else {
            argument.kind = Kind::unsigned_integer;
            argument.unsigned_value = value;
        }
    } else if constexpr (std::is_convertible_v<T, const char*>) {
        argument.kind = Kind::string;
        argument.pointer_value = static_cast<const char*>(value);
    } else if constexpr (std::is_pointer_v<T>) {
        argument.kind = Kind::pointer;
        argument.pointer_value = static_cast<const void*>(value);
    } else {
        static_assert(std::is_arithmetic_v<T>, "AscendC::printf prints numbers, pointers and strings");
    }
    return argument;
}

// Formats one conversion `spec` (from '%' up to and including the conversion letter, length
// modifiers removed) with `argument`, converted to what the conversion letter expects.
inline void append_conversion(std::string& out, std::string spec, const PrintfArgument& argument) {
    using Kind = PrintfArgument::Kind;
    const char conversion = spec.back();
    spec.pop_back();
    auto as_signed = [&]() -> long long {
        switch (argument.kind) {
            case Kind::unsigned_integer: return static_cast<long long>(argument.unsigned_value);
            case Kind::floating: return static_cast<long long>(argument.floating_value);
            case Kind::signed_integer: return argument.signed_value;
            default: return static_cast<long long>(reinterpret_cast<uintptr_t>(argument.pointer_value));
        }
    };
    auto as_unsigned = [&]() -> unsigned long long {
        switch (argument.kind) {
            case Kind::signed_integer: return static_cast<unsigned long long>(argument.signed_value);
            case Kind::floating: return static_cast<unsigned long long>(argument.floating_value);
            case Kind::unsigned_integer: return argument.unsigned_value;
            default: return static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(argument.pointer_value));
        }
    };
    auto as_double = [&]() -> double {
        switch (argument.kind) {
            case Kind::signed_integer: return static_cast<double>(argument.signed_value);
            case Kind::unsigned_integer: return static_cast<double>(argument.unsigned_value);
            case Kind::floating: return argument.floating_value;
            default: return 0.0;
        }
    };
    char buffer[512];
    int written = 0;
    switch (conversion) {
        case 'd':
        case 'i': written = std::snprintf(buffer, sizeof buffer, (spec + "lld").c_str(), as_signed()); break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            written = std::snprintf(buffer, sizeof buffer, (spec + "ll" + conversion).c_str(), as_unsigned());
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': written = std::snprintf(buffer, sizeof buffer, (spec + conversion).c_str(), as_double()); break;
        case 'c':
            written = std::snprintf(buffer, sizeof buffer, (spec + 'c').c_str(), static_cast<int>(as_signed()));
            break;
        case 's':
            written = std::snprintf(buffer, sizeof buffer, (spec + 's').c_str(),
                                    argument.kind == Kind::string ? static_cast<const char*>(argument.pointer_value)
                                                                  : "(not a string)");
            break;
        case 'p': written = std::snprintf(buffer, sizeof buffer, (spec + 'p').c_str(), argument.pointer_value); break;
        default: out += spec + conversion; return;
    }
    if (written > 0) out.append(buffer, std::min<std::size_t>(std::size_t(written), sizeof buffer - 1));
}

// Expands `format` with `arguments` the way printf would.
inline std::string format_printf(const char* format, const PrintfArgument* arguments, std::size_t count) {
    std::string out;
    std::size_t next = 0;
    for (const char* p = format; *p != '\0'; ++p) {
        if (*p != '%') {
            out.push_back(*p);
            continue;
        }
        if (p[1] == '%') {
            out.push_back('%');
            ++p;
            continue;
        }
        std::string spec = "%";
        const char* q = p + 1;
        while (*q != '\0' && std::strchr("-+ #0123456789.*", *q) != nullptr) spec.push_back(*q++);
        while (*q != '\0' && std::strchr("hlLqjzt", *q) != nullptr) ++q;  // sizes come from the argument
        if (*q == '\0') {
            out += spec;
            break;
        }
        spec.push_back(*q);
        if (next < count) append_conversion(out, spec, arguments[next++]);
        else out += "(missing argument)";
        p = q;
    }
    return out;
}

// Writes `message` with every line prefixed by the running block; one fwrite under the stdout lock.
inline void print_from_block(const std::string& message) {
    const BlockContext& block = current_block();
    const std::string prefix = "[block " + std::to_string(block.index) + "/" + std::to_string(block.count) + "] ";
    std::string lines;
    std::size_t start = 0;
    while (start < message.size()) {
        std::size_t end = message.find('\n', start);
        if (end == std::string::npos) end = message.size();
        lines += prefix;
        lines.append(message, start, end - start);
        lines.push_back('\n');  // an unterminated last line is ended so that no other block's line joins it
        start = end + 1;
    }
    flockfile(stdout);
    std::fwrite(lines.data(), 1, lines.size(), stdout);
    std::fflush(stdout);
    funlockfile(stdout);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <class... Args>
__aicore__ inline void printf(__gm__ const char* fmt, Args&&... args) {
    using namespace canopy::kernel::ascendc;
    const PrintfArgument arguments[sizeof...(Args) + 1] = {make_printf_argument(std::decay_t<Args>(args))...,
                                                           PrintfArgument{}};
    print_from_block(format_printf(fmt, arguments, sizeof...(Args)));
}

template <class... Args>
__aicore__ inline void PRINTF(__gm__ const char* fmt, Args&&... args) {
    printf(fmt, std::forward<Args>(args)...);
}

}  // namespace AscendC
