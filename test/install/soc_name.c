/* Built with `pkg-config --cflags --libs canopy` alone: prints the SoC name, which the runtime
 * answers before aclInit. */
#include <stdio.h>

#include "acl/acl.h"

int main(void)
{
    const char* soc = aclrtGetSocName();
    if (soc == NULL) {
        printf("[ERROR] aclrtGetSocName returned NULL: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    printf("%s\n", soc);
    return 0;
}
