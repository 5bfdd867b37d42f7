// aclnnAdd: out = self + alpha * other.
#include "aclnnop/aclnn_add.h"

#include "elementwise.h"

using namespace canopy::aclnn;

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    return call("aclnnAddGetWorkspaceSize", [&] {
        plan_binary("aclnnAdd", BinaryOp::add, self, other, alpha, out, workspaceSize, executor);
    });
}

aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return call("aclnnAdd", [&] { run_executor("aclnnAdd", workspace, workspaceSize, executor, stream); });
}

}  // extern "C"
