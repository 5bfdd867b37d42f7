#pragma once
// The checks CANN's CPU debug mode makes as assertion aborts, made here as KernelFaults the launcher
// turns into a failed stream. Messages name the API and the sizes involved; the launcher adds the
// kernel name and the block. The failure paths are cold and out of line so that the checks on the
// hot path are a compare and a predictable branch.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "acl/error_codes/rt_error_codes.h"
#include "canopy/kernel/block.h"

namespace canopy::kernel::ascendc {

// API misuse: the AI core raises an exception.
inline constexpr int kApiMisuse = ACL_ERROR_RT_AICORE_EXCEPTION;
// Global memory accessed past the GlobalTensor's SetGlobalBuffer size.
inline constexpr int kGlobalReadOverflow = ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW;
inline constexpr int kGlobalWriteOverflow = ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW;

namespace detail {
inline void append(std::string& out, std::string_view text) { out.append(text); }
inline void append(std::string& out, const char* text) { out.append(text); }
inline void append(std::string& out, const std::string& text) { out.append(text); }
inline void append(std::string& out, char c) { out.push_back(c); }
template <typename Number, std::enable_if_t<std::is_arithmetic_v<Number>, int> = 0>
inline void append(std::string& out, Number value) {
    out.append(std::to_string(value));
}
}  // namespace detail

// Joins text and numbers into one message.
template <typename... Parts>
std::string describe(const Parts&... parts) {
    std::string message;
    (detail::append(message, parts), ...);
    return message;
}

// Raises ACL_ERROR_RT_AICORE_EXCEPTION for `api`, with a message built from `parts`.
template <typename... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void fail_misuse(const char* api, const Parts&... parts) {
    canopy::kernel::raise(kApiMisuse, api, describe(parts...));
}

// Raises the read or write overflow trap for an access through a GlobalTensor.
template <typename... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void fail_global_access(bool write, const char* api,
                                                                const Parts&... parts) {
    canopy::kernel::raise(write ? kGlobalWriteOverflow : kGlobalReadOverflow, api, describe(parts...));
}

}  // namespace canopy::kernel::ascendc
