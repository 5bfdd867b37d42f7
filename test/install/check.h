#ifndef CANOPY_TEST_INSTALL_CHECK_H
#define CANOPY_TEST_INSTALL_CHECK_H
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

// Stops the program with the failing call, its code and the runtime's message.
#define CHECK_ACL(call)                                                                        \
    do {                                                                                       \
        const int checkAclCode = static_cast<int>(call);                                       \
        if (checkAclCode != 0) {                                                               \
            std::printf("[ERROR] %s returned %d: %s\n", #call, checkAclCode, aclGetRecentErrMsg()); \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

#endif
