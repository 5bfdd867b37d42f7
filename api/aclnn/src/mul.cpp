// aclnnMul: out = self * other.
#include "aclnnop/aclnn_mul.h"

#include "elementwise.h"

using namespace canopy::aclnn;

extern "C" {

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    return call("aclnnMulGetWorkspaceSize", [&] {
        plan_binary("aclnnMul", BinaryOp::mul, self, other, nullptr, out, workspaceSize, executor);
    });
}

aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return call("aclnnMul", [&] { run_executor("aclnnMul", workspace, workspaceSize, executor, stream); });
}

}  // extern "C"
