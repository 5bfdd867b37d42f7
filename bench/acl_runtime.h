#pragma once
// One runtime for a whole benchmark process, as an application would have: aclInit (with the JSON
// file named by CANOPY_BENCH_CONFIG, if set), device 0 current on the calling thread, and a stream.
#include <cstdlib>

#include "acl/acl.h"

namespace canopy::bench {

struct AclRuntime {
    AclRuntime() {
        aclInit(std::getenv("CANOPY_BENCH_CONFIG"));
        aclrtSetDevice(0);
        aclrtCreateStream(&stream);
    }
    aclrtStream stream = nullptr;
};

inline AclRuntime& acl_runtime() {
    static AclRuntime instance;
    return instance;
}

}  // namespace canopy::bench
