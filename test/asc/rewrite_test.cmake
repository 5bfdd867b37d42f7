# Unit test of cmake/CanopyKernelRewrite.cmake on the kernel forms of the ASC samples:
#   cmake -DREWRITE=<CanopyKernelRewrite.cmake> -DWORK=<scratch dir> -P rewrite_test.cmake
# Fails (FATAL_ERROR) naming the first expectation the rewritten copies do not meet.
cmake_minimum_required(VERSION 3.25)
foreach(required REWRITE WORK)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "usage: cmake -DREWRITE=<rewrite script> -DWORK=<scratch dir> -P rewrite_test.cmake")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK}")

# Rewrites <input> and sets <out> to the copy's text.
function(rewrite input out)
  get_filename_component(name "${input}" NAME)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DINPUT=${CMAKE_CURRENT_LIST_DIR}/${input}"
                          "-DOUTPUT=${WORK}/${name}.cpp" -P "${REWRITE}"
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "rewriting ${input} failed: ${error}")
  endif()
  file(READ "${WORK}/${name}.cpp" text)
  file(READ "${CMAKE_CURRENT_LIST_DIR}/${input}" original)
  # One #line directive added, no line moved.
  string(REGEX MATCHALL "\n" copy_lines "${text}")
  string(REGEX MATCHALL "\n" original_lines "${original}")
  list(LENGTH copy_lines copy_count)
  list(LENGTH original_lines original_count)
  math(EXPR expected_count "${original_count} + 1")
  if(NOT copy_count EQUAL expected_count)
    message(FATAL_ERROR "${input}: the copy has ${copy_count} lines, expected ${expected_count}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(expect text fragment)
  string(FIND "${text}" "${fragment}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the rewritten copy lacks: ${fragment}\n--- copy ---\n${text}")
  endif()
endfunction()

function(expect_not text fragment)
  string(FIND "${text}" "${fragment}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the rewritten copy should not contain: ${fragment}\n--- copy ---\n${text}")
  endif()
endfunction()

rewrite(rewrite_input.asc copy)
# Every defined non-template kernel is registered after its body, whatever its qualifiers.
foreach(kernel plain_c vector_first vector_second cube_kernel mix_kernel in_namespace)
  expect("${copy}" "} CANOPY_REGISTER_KERNEL(${kernel});")
endforeach()
expect("${copy}" "x[0] = 5; } CANOPY_REGISTER_KERNEL(in_namespace);\n}  // namespace ns")
foreach(kernel templated declared_only in_comment in_string)
  expect_not("${copy}" "CANOPY_REGISTER_KERNEL(${kernel})")
endforeach()
expect_not("${copy}" "CANOPY_REGISTER_COOPERATIVE_KERNEL")
# Launches: plain, with template arguments, qualified; text in literals stays.
expect("${copy}" "::canopy::kernel::ChevronLaunch<plain_c>(\"plain_c\", 1, nullptr, s)(bytes);")
expect("${copy}" "::canopy::kernel::ChevronLaunch<templated<float, 16>>(\"templated<float, 16>\", 2, 0, s)(x);")
expect("${copy}" "::canopy::kernel::ChevronLaunch<ns::in_namespace>(\"ns::in_namespace\", 3, 0, s)(x);")
# Without the stream (ChevronLaunch defaults it), or without the size too: 0 bytes.
expect("${copy}" "::canopy::kernel::ChevronLaunch<vector_first>(\"vector_first\", 4, 0)(x);")
expect("${copy}" "::canopy::kernel::ChevronLaunch<vector_second>(\"vector_second\", 5, 0)(x);")
expect("${copy}" "::canopy::kernel::ChevronLaunch<cube_kernel>(\"cube_kernel\", std::max(1, static_cast<int>(sizeof(float[2]))), 0, s)(x);")
expect("${copy}" "\"kernel<<<1, 0, s>>>(x) __global__ void in_string() {}\"")
expect("${copy}" "// __global__ void in_comment(float* x) {}\n")

rewrite(rewrite_cooperative_input.asc cooperative)
expect("${cooperative}" "} CANOPY_REGISTER_COOPERATIVE_KERNEL(waits);")
expect("${cooperative}" "::canopy::kernel::ChevronLaunch<waits>(\"waits\", 4, 0, s)(x);")
# A template kernel is registered cooperative at its launch, for the instantiation launched.
expect("${cooperative}" "([] { static ::canopy::kernel::KernelRegistrar<waits_templated<size>> canopy_registrar(\"waits_templated<size>\", true); }(), ::canopy::kernel::ChevronLaunch<waits_templated<size>>(\"waits_templated<size>\", 4, 0, s))(x);")
rewrite(rewrite_header_input.asc header_waits)
expect("${header_waits}" "} CANOPY_REGISTER_COOPERATIVE_KERNEL(waits_in_header);")
message(STATUS "CanopyKernelRewrite: all rewrite expectations met")

# A configuration of four values is refused, naming the file and line.
execute_process(COMMAND "${CMAKE_COMMAND}" "-DINPUT=${CMAKE_CURRENT_LIST_DIR}/rewrite_bad_input.asc"
                        "-DOUTPUT=${WORK}/rewrite_bad_input.asc.cpp" -P "${REWRITE}"
                RESULT_VARIABLE bad_result ERROR_VARIABLE bad_error)
string(REGEX REPLACE "[ \t\r\n]+" " " bad_error "${bad_error}")
if(bad_result EQUAL 0 OR NOT bad_error MATCHES "rewrite_bad_input.asc:4: kernel launch k<<<...>>> has 3 commas")
  message(FATAL_ERROR "a four-value launch configuration was not refused as expected: ${bad_error}")
endif()
message(STATUS "CanopyKernelRewrite: the four-value configuration is refused")
