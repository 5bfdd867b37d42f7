// libc_sec: the narrow functions of CANN's bounds-checked C library (securec.h), with libboundscheck's
// argument checks, error codes and clearing of the destination on failure.
#include <cctype>
#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <cwchar>

#define CANOPY_SECUREC_LIBRARY
#include "securec.h"

#define SECUREC_API extern "C" __attribute__((visibility("default")))

namespace {

bool overlaps(const void* a, std::size_t a_size, const void* b, std::size_t b_size) {
    const auto a_begin = reinterpret_cast<std::uintptr_t>(a);
    const auto b_begin = reinterpret_cast<std::uintptr_t>(b);
    return a_begin < b_begin + b_size && b_begin < a_begin + a_size;
}

bool bad_size(std::size_t destMax, std::size_t limit) { return destMax == 0 || destMax > limit; }

// The checks memcpy_s and memmove_s share; EOK when the copy may go ahead.
errno_t check_copy(void* dest, std::size_t destMax, const void* src, std::size_t count) {
    if (bad_size(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    return EOK;
}

// The checks of the string functions before they look at the strings; EOK when they may.
errno_t check_strings(char* strDest, std::size_t destMax, const char* strSrc) {
    if (bad_size(destMax, SECUREC_STRING_MAX_LEN)) return ERANGE;
    if (strDest == nullptr) return EINVAL;
    if (strSrc == nullptr) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    return EOK;
}

// Appends `length` characters of strSrc to the string in strDest, whose length within destMax is
// destLength (destMax when it has no terminator there).
errno_t append(char* strDest, std::size_t destMax, std::size_t destLength, const char* strSrc, std::size_t length) {
    if (destLength == destMax) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;  // strDest holds no string within destMax
    }
    if (length >= destMax - destLength) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (overlaps(strDest, destLength + length + 1, strSrc, length + 1)) {
        strDest[0] = '\0';
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(strDest + destLength, strSrc, length);
    strDest[destLength + length] = '\0';
    return EOK;
}

constexpr int format_truncated = -2;

// vsnprintf into size bytes: the characters written, format_truncated when they did not all fit
// (the buffer then holds what fit, terminated), or -1 for a formatting error.
int format_into(char* buffer, std::size_t size, const char* format, va_list arguments) {
    const int written = std::vsnprintf(buffer, size, format, arguments);
    if (written < 0) return -1;
    if (static_cast<std::size_t>(written) >= size) return format_truncated;
    return written;
}

bool bad_format_arguments(char* strDest, std::size_t destMax, const char* format) {
    if (format != nullptr && strDest != nullptr && !bad_size(destMax, SECUREC_STRING_MAX_LEN)) return false;
    if (strDest != nullptr && !bad_size(destMax, SECUREC_STRING_MAX_LEN)) strDest[0] = '\0';
    return true;
}

// ---- The readers: the format is walked conversion by conversion; each conversion is read by the C
// library's own scanf with one specification, its width bounded by the destination's size.

class Input {
public:
    explicit Input(const char* text) : text_(text) {}
    explicit Input(std::FILE* stream) : stream_(stream) {}

    int peek() {
        if (text_ != nullptr) return text_[0] == '\0' ? EOF : static_cast<unsigned char>(text_[0]);
        const int c = std::getc(stream_);
        if (c != EOF) std::ungetc(c, stream_);
        return c;
    }
    void advance() {
        if (text_ != nullptr) {
            ++text_;
        } else {
            std::getc(stream_);
        }
        ++consumed_;
    }
    // Reads one conversion (`spec`, which ends in %n) into destination; the scanf result.
    int read(const std::string& spec, void* destination) {
        int used = -1;
        const int result = destination == nullptr
                               ? (text_ != nullptr ? std::sscanf(text_, spec.c_str(), &used)
                                                   : std::fscanf(stream_, spec.c_str(), &used))
                               : (text_ != nullptr ? std::sscanf(text_, spec.c_str(), destination, &used)
                                                   : std::fscanf(stream_, spec.c_str(), destination, &used));
        if (used >= 0) {
            if (text_ != nullptr) text_ += used;
            consumed_ += static_cast<std::size_t>(used);
        }
        return used >= 0 ? 1 : result;
    }
    std::size_t consumed() const { return consumed_; }

private:
    const char* text_ = nullptr;
    std::FILE* stream_ = nullptr;
    std::size_t consumed_ = 0;
};

// Whether character c belongs to the scanset of a %[ specification (`set` is what lies between the
// brackets, with its leading ^ if any).
bool in_scanset(const std::string& set, int c) {
    if (c == EOF) return false;
    char probe[2] = {static_cast<char>(c), '\0'};
    char match[2];
    return std::sscanf(probe, ("%1[" + set + "]").c_str(), match) == 1;
}

struct Spec {
    bool suppressed = false;
    long width = -1;           // none
    std::string length;        // hh, h, l, ll, j, z, t, L, q
    char conversion = '\0';
    std::string scanset;       // for %[
};

// Parses the specification after '%' at format; returns the position after it, nullptr if malformed.
const char* parse_spec(const char* format, Spec& spec) {
    if (*format == '*') {
        spec.suppressed = true;
        ++format;
    }
    if (std::isdigit(static_cast<unsigned char>(*format))) {
        spec.width = 0;
        while (std::isdigit(static_cast<unsigned char>(*format))) {
            spec.width = spec.width * 10 + (*format - '0');
            if (spec.width > INT_MAX) return nullptr;
            ++format;
        }
        if (spec.width == 0) return nullptr;
    }
    while (std::strchr("hljztLq", *format) != nullptr && *format != '\0') spec.length += *format++;
    spec.conversion = *format;
    if (spec.conversion == '\0') return nullptr;
    ++format;
    if (spec.conversion == '[') {
        const char* start = format;
        if (*format == '^') ++format;
        if (*format == ']') ++format;  // a leading ] belongs to the set
        while (*format != '\0' && *format != ']') ++format;
        if (*format != ']') return nullptr;
        spec.scanset.assign(start, format);
        ++format;
    }
    return format;
}

void store_count(const Spec& spec, void* destination, std::size_t count) {
    if (spec.length == "hh") {
        *static_cast<signed char*>(destination) = static_cast<signed char>(count);
    } else if (spec.length == "h") {
        *static_cast<short*>(destination) = static_cast<short>(count);
    } else if (spec.length == "l") {
        *static_cast<long*>(destination) = static_cast<long>(count);
    } else if (spec.length == "ll" || spec.length == "q" || spec.length == "L") {
        *static_cast<long long*>(destination) = static_cast<long long>(count);
    } else if (spec.length == "j") {
        *static_cast<intmax_t*>(destination) = static_cast<intmax_t>(count);
    } else if (spec.length == "z") {
        *static_cast<std::size_t*>(destination) = count;
    } else if (spec.length == "t") {
        *static_cast<std::ptrdiff_t*>(destination) = static_cast<std::ptrdiff_t>(count);
    } else {
        *static_cast<int*>(destination) = static_cast<int>(count);
    }
}

void clear_field(const Spec& spec, void* destination, unsigned size) {
    if (destination == nullptr || size == 0 || spec.conversion == 'c') return;
    if (spec.length == "l") {
        *static_cast<wchar_t*>(destination) = L'\0';
    } else {
        *static_cast<char*>(destination) = '\0';
    }
}

int scan(Input& input, const char* format, va_list arguments) {
    int assigned = 0;
    bool converted = false;  // a conversion (assigned or suppressed) has succeeded
    auto input_failure = [&] { return converted || assigned > 0 ? assigned : EOF; };
    while (*format != '\0') {
        const unsigned char f = static_cast<unsigned char>(*format);
        if (std::isspace(f)) {
            while (std::isspace(input.peek())) input.advance();
            ++format;
            continue;
        }
        if (f != '%' || format[1] == '%') {
            if (f == '%') {
                ++format;  // %% matches one %, after white space as for a conversion
                while (std::isspace(input.peek())) input.advance();
            }
            const int c = input.peek();
            if (c == EOF) return input_failure();
            if (c != static_cast<unsigned char>(*format)) return assigned;
            input.advance();
            ++format;
            continue;
        }
        Spec spec;
        const char* next = parse_spec(format + 1, spec);
        if (next == nullptr) return assigned;  // a malformed specification ends the scan
        format = next;
        if (spec.conversion == 'n') {
            if (!spec.suppressed) {
                void* destination = va_arg(arguments, void*);
                if (destination == nullptr) return assigned;
                store_count(spec, destination, input.consumed());
            }
            continue;
        }
        const bool sized = spec.conversion == 's' || spec.conversion == 'c' || spec.conversion == '[' ||
                           spec.conversion == 'S' || spec.conversion == 'C';
        void* destination = spec.suppressed ? nullptr : va_arg(arguments, void*);
        unsigned size = 0;
        if (sized && !spec.suppressed) size = va_arg(arguments, unsigned);
        if (!spec.suppressed && destination == nullptr) return assigned;
        long width = spec.width;
        if (sized && !spec.suppressed) {
            if (spec.conversion == 'c' || spec.conversion == 'C') {
                if (width < 0) width = 1;
                if (static_cast<unsigned long>(width) > size) return assigned;  // the characters do not fit
            } else {
                if (size == 0) return assigned;
                // One element is kept for the terminator.
                if (width < 0 || static_cast<unsigned long>(width) > size - 1) width = static_cast<long>(size) - 1;
                if (width == 0) {
                    // Only the empty string fits: any character of the field overflows.
                    if (spec.conversion != '[') {
                        while (std::isspace(input.peek())) input.advance();
                    }
                    clear_field(spec, destination, size);
                    return assigned;
                }
            }
        }
        std::string text = std::string("%") + (spec.suppressed ? "*" : "");
        if (width > 0) text += std::to_string(width);
        text += spec.length;
        text += spec.conversion;
        if (spec.conversion == '[') text += spec.scanset + "]";
        text += "%n";
        const int result = input.read(text, destination);
        if (result == EOF) return input_failure();
        if (result < 1) return assigned;  // matching failure
        converted = true;
        const bool bounded_by_size = sized && !spec.suppressed && (spec.width < 0 || spec.width > width);
        if (bounded_by_size && spec.conversion != 'c' && spec.conversion != 'C') {
            // The field was cut at the destination's size: if it goes on, it did not fit.
            const int c = input.peek();
            const bool goes_on = spec.conversion == '[' ? in_scanset(spec.scanset, c) : (c != EOF && !std::isspace(c));
            if (goes_on) {
                clear_field(spec, destination, size);
                return assigned;
            }
        }
        if (!spec.suppressed) ++assigned;
    }
    return assigned;
}

}  // namespace

SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (bad_size(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    const errno_t checked = check_copy(dest, destMax, src, count);
    if (checked != EOK) return checked;
    if (dest == src || count == 0) return EOK;
    if (overlaps(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    const errno_t checked = check_copy(dest, destMax, src, count);
    if (checked != EOK) return checked;
    if (count != 0) std::memmove(dest, src, count);
    return EOK;
}

SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
    const errno_t checked = check_strings(strDest, destMax, strSrc);
    if (checked != EOK) return checked;
    if (strDest == strSrc) return std::strlen(strSrc) < destMax ? EOK : ERANGE_AND_RESET;
    return append(strDest, destMax, 0, strSrc, std::strlen(strSrc));
}

SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    const errno_t checked = check_strings(strDest, destMax, strSrc);
    if (checked != EOK) return checked;
    if (count > SECUREC_STRING_MAX_LEN) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (count == 0) {
        strDest[0] = '\0';
        return EOK;
    }
    const std::size_t length = strnlen(strSrc, count);
    if (strDest == strSrc) return length < destMax ? EOK : ERANGE_AND_RESET;
    return append(strDest, destMax, 0, strSrc, length);
}

SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
    const errno_t checked = check_strings(strDest, destMax, strSrc);
    if (checked != EOK) return checked;
    return append(strDest, destMax, strnlen(strDest, destMax), strSrc, std::strlen(strSrc));
}

SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    const errno_t checked = check_strings(strDest, destMax, strSrc);
    if (checked != EOK) return checked;
    if (count > SECUREC_STRING_MAX_LEN) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    return append(strDest, destMax, strnlen(strDest, destMax), strSrc, strnlen(strSrc, count));
}

SECUREC_API char* strtok_s(char* strToken, const char* strDelimit, char** context) {
    if (context == nullptr || strDelimit == nullptr) return nullptr;
    char* position = strToken != nullptr ? strToken : *context;
    if (position == nullptr) return nullptr;
    position += std::strspn(position, strDelimit);
    if (*position == '\0') {
        *context = position;
        return nullptr;
    }
    char* token = position;
    position += std::strcspn(position, strDelimit);
    if (*position != '\0') *position++ = '\0';
    *context = position;
    return token;
}

SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
    if (bad_format_arguments(strDest, destMax, format)) return -1;
    const int written = format_into(strDest, destMax, format, argList);
    if (written < 0) {
        strDest[0] = '\0';
        return -1;
    }
    return written;
}

SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int written = vsprintf_s(strDest, destMax, format, arguments);
    va_end(arguments);
    return written;
}

// count bounds the characters written; (size_t)-1 means "as many as fit". Output cut at count stays in
// strDest (truncated, -1); output that does not fit destMax clears it, unless count is (size_t)-1.
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
    const bool bad_count = count > SECUREC_STRING_MAX_LEN - 1 && count != static_cast<size_t>(-1);
    if (bad_format_arguments(strDest, destMax, format) || bad_count) {
        if (strDest != nullptr && !bad_size(destMax, SECUREC_STRING_MAX_LEN)) strDest[0] = '\0';
        return -1;
    }
    int written;
    if (destMax > count) {
        written = format_into(strDest, count + 1, format, argList);
        if (written == format_truncated) return -1;
    } else {
        written = format_into(strDest, destMax, format, argList);
        if (written == format_truncated && count == static_cast<size_t>(-1)) return -1;
    }
    if (written < 0) {
        strDest[0] = '\0';
        return -1;
    }
    return written;
}

SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int written = vsnprintf_s(strDest, destMax, count, format, arguments);
    va_end(arguments);
    return written;
}

// Output that does not fit is cut at destMax - 1 characters, which is then the result.
SECUREC_API int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
    if (bad_format_arguments(strDest, destMax, format)) return -1;
    const int written = format_into(strDest, destMax, format, argList);
    if (written == format_truncated) return static_cast<int>(destMax - 1);
    if (written < 0) {
        strDest[0] = '\0';
        return -1;
    }
    return written;
}

SECUREC_API int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int written = vsnprintf_truncated_s(strDest, destMax, format, arguments);
    va_end(arguments);
    return written;
}

SECUREC_API int vsscanf_s(const char* buffer, const char* format, va_list argList) {
    if (buffer == nullptr || format == nullptr) return EOF;
    Input input(buffer);
    return scan(input, format, argList);
}

SECUREC_API int sscanf_s(const char* buffer, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int assigned = vsscanf_s(buffer, format, arguments);
    va_end(arguments);
    return assigned;
}

SECUREC_API int vfscanf_s(FILE* stream, const char* format, va_list argList) {
    if (stream == nullptr || format == nullptr) return EOF;
    Input input(stream);
    return scan(input, format, argList);
}

SECUREC_API int fscanf_s(FILE* stream, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int assigned = vfscanf_s(stream, format, arguments);
    va_end(arguments);
    return assigned;
}

SECUREC_API int vscanf_s(const char* format, va_list argList) { return vfscanf_s(stdin, format, argList); }

SECUREC_API int scanf_s(const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    const int assigned = vfscanf_s(stdin, format, arguments);
    va_end(arguments);
    return assigned;
}
