/*
 * Canopy: what every aclnn operator header includes (CANN's aclnn/aclnn_base.h).
 */
#ifndef CANOPY_ACLNN_ACLNN_BASE_H
#define CANOPY_ACLNN_ACLNN_BASE_H

#include "aclnn/acl_meta.h"

#endif /* CANOPY_ACLNN_ACLNN_BASE_H */
