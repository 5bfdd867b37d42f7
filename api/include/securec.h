/* securec.h: the bounds-checked C functions of CANN's libc_sec (Huawei's libboundscheck), which CANN's
 * samples and catlass call from host code and link with -lc_sec. Canopy's libc_sec implements the narrow
 * (char) functions below with libboundscheck's argument checks and error codes: a function that finds a
 * bad argument returns the code and, where libboundscheck does, clears the destination ("_AND_RESET").
 * C and C++. */
#ifndef CANOPY_SECUREC_H
#define CANOPY_SECUREC_H

/* As CANN's (securectype.h), the C library's stdio, string and stdlib come with it; programs rely on that. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
/* The destination was cleared (its first byte, or all of it for the mem functions) before returning. */
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

/* Larger destination sizes are refused as ERANGE: they are taken for a negative size cast to size_t. */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#ifndef SECUREC_ERRNO_T_DEFINED
#define SECUREC_ERRNO_T_DEFINED
typedef int errno_t;
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SECUREC_FORMAT_CHECK(kind, format_index, first_argument) \
    __attribute__((format(kind, format_index, first_argument)))
#else
#define SECUREC_FORMAT_CHECK(kind, format_index, first_argument)
#endif

#if defined(__cplusplus) && !defined(CANOPY_SECUREC_LIBRARY)
/* Canopy's host headers (tiling/tiling_api.h) define memcpy_s inline for C++; a second declaration with C
 * linkage would conflict with it, so C++ programs get that one (the same arguments). libc_sec itself, built
 * with CANOPY_SECUREC_LIBRARY, defines the C function. */
#include "canopy/kernel/ascendc/securec.h"
#define CANOPY_SECUREC_INLINE_MEMCPY_S
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CANOPY_SECUREC_INLINE_MEMCPY_S
errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
#endif

errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
char* strtok_s(char* strToken, const char* strDelimit, char** context);

/* The formatted writers return the characters written (without the terminator), or -1. */
int sprintf_s(char* strDest, size_t destMax, const char* format, ...) SECUREC_FORMAT_CHECK(printf, 3, 4);
int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
    SECUREC_FORMAT_CHECK(printf, 3, 0);
int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
    SECUREC_FORMAT_CHECK(printf, 4, 5);
int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList)
    SECUREC_FORMAT_CHECK(printf, 4, 0);
int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) SECUREC_FORMAT_CHECK(printf, 3, 4);
int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList)
    SECUREC_FORMAT_CHECK(printf, 3, 0);

/* The formatted readers take, after each %s, %c or %[ destination, its size in elements as an unsigned
 * int. They return the fields assigned, or -1 (EOF) for an input failure before the first conversion or
 * for a NULL buffer or format. A field that does not fit its destination leaves it an empty string and
 * ends the scan. */
int sscanf_s(const char* buffer, const char* format, ...);
int vsscanf_s(const char* buffer, const char* format, va_list argList);
int fscanf_s(FILE* stream, const char* format, ...);
int vfscanf_s(FILE* stream, const char* format, va_list argList);
int scanf_s(const char* format, ...);
int vscanf_s(const char* format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_SECUREC_H */
