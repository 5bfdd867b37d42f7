/*
 * Canopy: aclnnMul (libopapi), out = self * other, with broadcasting and type promotion.
 *
 * Interface-compatible with CANN's aclnnop/aclnn_mul.h; the two phases are those of aclnnAdd.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MUL_H
#define CANOPY_ACLNNOP_ACLNN_MUL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MUL_H */
