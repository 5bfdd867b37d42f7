/* The securec functions called from C: securec.h compiles as C, and C++ programs reach libc_sec's
 * memcpy_s (which they do not see: securec.h gives them an inline one) only through C code. */
#include <securec.h>

errno_t canopy_test_c_memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    return memcpy_s(dest, destMax, src, count);
}
