# Checks once per build folder that the ASC compiler builds a program: a kernel with a launch,
# compiled through the launch rewrite and linked with the runtime.
if(NOT CMAKE_ASC_COMPILER_WORKS)
  set(_asc_test_dir "${CMAKE_PLATFORM_INFO_DIR}/CMakeScratch/TestASC")
  file(MAKE_DIRECTORY "${_asc_test_dir}")
  file(WRITE "${_asc_test_dir}/test.asc" [=[
#include "acl/acl.h"
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void asc_test_kernel(int* out) { out[0] = 1; }
void asc_test_launch(int* out, aclrtStream stream) { asc_test_kernel<<<1, 0, stream>>>(out); }
int main() { return 0; }
]=])
  message(CHECK_START "Check for working ASC compiler: ${CMAKE_ASC_COMPILER}")
  execute_process(
    COMMAND "${CMAKE_ASC_COMPILER}" --npu-arch=dav-2201 -c test.asc -o test.o
    WORKING_DIRECTORY "${_asc_test_dir}"
    RESULT_VARIABLE _asc_compile_result OUTPUT_VARIABLE _asc_output ERROR_VARIABLE _asc_output)
  if(_asc_compile_result EQUAL 0)
    execute_process(
      COMMAND "${CMAKE_ASC_COMPILER}" test.o -o test
      WORKING_DIRECTORY "${_asc_test_dir}"
      RESULT_VARIABLE _asc_link_result OUTPUT_VARIABLE _asc_link_output ERROR_VARIABLE _asc_link_output)
    string(APPEND _asc_output "${_asc_link_output}")
  endif()
  if(NOT _asc_compile_result EQUAL 0 OR NOT _asc_link_result EQUAL 0)
    message(CHECK_FAIL "broken")
    message(FATAL_ERROR "The ASC compiler ${CMAKE_ASC_COMPILER} does not build a test program:\n${_asc_output}")
  endif()
  message(CHECK_PASS "works")
  set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
  unset(_asc_test_dir)
endif()
