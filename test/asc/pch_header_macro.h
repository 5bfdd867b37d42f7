// Input of launch_rewrite_test.cmake: a header of the source's that sets a macro kernel_operator.h
// reads before including it.
#pragma once
#define K_MAX_SHAPE_DIM 3
#include "kernel_operator.h"
