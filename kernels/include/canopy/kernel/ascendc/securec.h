#pragma once
// memcpy_s of CANN's bounds-checked C library (securec.h), which its host headers bring into the
// samples' host code: copies `count` bytes into `dest` of `destMax` bytes. Returns 0 (EOK), or
// EINVAL (22) for a null pointer (the destination is then left alone), or ERANGE_AND_RESET (162)
// when count exceeds destMax (the destination is then zeroed), as securec answers.
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
inline int memcpy_s(void* dest, std::size_t destMax, const void* src, std::size_t count) {
    if (dest == nullptr || destMax == 0) return 22;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return 22;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return 162;
    }
    if (count != 0) std::memmove(dest, src, count);
    return EOK;
}
