#pragma once
// A <<<>>> launch is an expression of its kernel's type, void, as in bisheng: whether the launch was
// enqueued is the calling thread's last error (aclrtGetLastError). The tests' launch helpers clear it,
// launch, and return it.
#include <cstdint>

#include "acl/acl.h"

// Forgets the calling thread's last error (an earlier call's).
inline void clear_launch_error() { static_cast<void>(aclrtGetLastError(ACL_RT_THREAD_LEVEL)); }

// 0 when the launches since clear_launch_error() were enqueued, else the aclError that rejected one.
inline uint32_t launch_result() { return static_cast<uint32_t>(aclrtGetLastError(ACL_RT_THREAD_LEVEL)); }
