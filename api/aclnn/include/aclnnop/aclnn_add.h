/*
 * Canopy: aclnnAdd (libopapi), out = self + alpha * other, with broadcasting and type promotion.
 *
 * Interface-compatible with CANN's aclnnop/aclnn_add.h. First phase: checks the arguments, plans
 * the computation and says how much device workspace it needs; second phase: enqueues it on the
 * stream, ordered with the stream's other work.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_H
#define CANOPY_ACLNNOP_ACLNN_ADD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                         const aclScalar *alpha, aclTensor *out,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_H */
