#pragma once
// The first phase shared by the element-wise binary operators (aclnnAdd, aclnnMul): checks the
// arguments as aclnn does, infers the broadcast shape and the result type, and plans the kernels
// (elementwise.cpp).
#include "aclnn_internal.h"
#include "elementwise_kernels.h"

namespace canopy::aclnn {

// `op` is the operator's name ("aclnnAdd"); `alpha` is NULL for operators without one.
void plan_binary(const char* op, BinaryOp kind, const aclTensor* self, const aclTensor* other,
                 const aclScalar* alpha, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

}  // namespace canopy::aclnn
