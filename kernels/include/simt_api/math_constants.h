#pragma once
// CANN's simt_api/math_constants.h (CUDA's names for float and double constants).
#define ASC_PI_F 3.141592654f
#define CUDART_PI_F 3.141592654f
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")
