#pragma once
// Canopy's other host libraries (libnnopbase, libopapi: aclnn) report their failures here, so that
// aclGetRecentErrMsg and aclrtGetLastError answer for them as CANN's do: one thread-local error
// text for every AscendCL library of the process.
namespace canopy::api {

__attribute__((visibility("default"))) void report_library_error(const char* api, int code, const char* message);

}  // namespace canopy::api
