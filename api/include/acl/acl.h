/*
 * Canopy: umbrella AscendCL header. Host programs include "acl/acl.h".
 *
 * Upstream CANN's acl.h only includes the sub-headers; aclInit, aclFinalize,
 * aclFinalizeReference and aclGetRecentErrMsg are declared in acl_rt.h there,
 * and so they are here. Model (acl_mdl.h) and operator (acl_op.h) APIs are not
 * part of Canopy.
 */
#ifndef CANOPY_ACL_ACL_H
#define CANOPY_ACL_ACL_H

#include "acl_base.h"
#include "acl_rt.h"

#endif /* CANOPY_ACL_ACL_H */
