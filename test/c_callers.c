/* Calls the runtime as a C program does: with plain integers where the API takes an enum. C++ code
 * cannot form enum values outside the enumerators' range without undefined behaviour, but a C
 * caller can pass them, and the runtime must reject them with ACL_ERROR_INVALID_PARAM. */
#include "acl/acl.h"

aclError canopy_test_launch_callback_raw(aclrtCallback fn, void *data, int block_type, aclrtStream stream) {
    return aclrtLaunchCallback(fn, data, (aclrtCallbackBlockType)block_type, stream);
}
