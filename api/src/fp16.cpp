// Half-precision conversions (CANN's, which saturate: canopy/kernel_runtime/builtin_tasks.h) and
// element sizes.
#include "api.h"
#include "canopy/kernel_runtime/builtin_tasks.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return canopy::builtin::half_to_float(value); }

aclFloat16 aclFloatToFloat16(float value) { return canopy::builtin::float_to_half(value); }

size_t aclDataTypeSize(aclDataType dataType) {
    switch (canopy::api::raw_value(dataType)) {
        case ACL_DT_UNDEFINED:
        case ACL_STRING: return 0;
        case ACL_BOOL:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_INT4:    // CANN counts the sub-byte types as one byte
        case ACL_UINT1:
        case ACL_HIFLOAT8:
        case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN:
        case ACL_FLOAT8_E8M0: return 1;
        case ACL_FLOAT16:
        case ACL_INT16:
        case ACL_UINT16:
        case ACL_BF16: return 2;
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32:
        case ACL_COMPLEX32: return 4;
        case ACL_COMPLEX128: return 16;
        default: return 8;  // 64-bit types, COMPLEX64, and (as CANN) any other value
    }
}

}  // extern "C"
