# The kernel compiler's unwinding through noexcept destructors (kernels/compiler/kernel_passes.cpp) and
# the launcher's rule that a block's first fault is the one reported, end to end:
#   cmake -DDRIVER=<canopy-asc> -DWORK=<scratch dir> -P destructor_fault_test.cmake
# compiles and links sample/destructor_fault.asc with the driver, runs it and fails (FATAL_ERROR) unless
# it reports [SUCCESS] (the program checks the errors of its launches).
cmake_minimum_required(VERSION 3.25)
foreach(required DRIVER WORK)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "usage: cmake -DDRIVER=<canopy-asc> -DWORK=<scratch dir> -P destructor_fault_test.cmake")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(source "${CMAKE_CURRENT_LIST_DIR}/sample/destructor_fault.asc")
execute_process(COMMAND "${DRIVER}" -O2 -c "${source}" -o "${WORK}/destructor_fault.o"
                RESULT_VARIABLE result ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling destructor_fault.asc failed: ${error}")
endif()
execute_process(COMMAND "${DRIVER}" "${WORK}/destructor_fault.o" -o "${WORK}/destructor_fault"
                RESULT_VARIABLE result ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "linking destructor_fault failed: ${error}")
endif()
execute_process(COMMAND "${WORK}/destructor_fault" RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
if(NOT result EQUAL 0 OR NOT output MATCHES "\\[SUCCESS\\]")
  message(FATAL_ERROR "destructor_fault returned ${result}:\n${output}${error}")
endif()
message(STATUS "${output}")
