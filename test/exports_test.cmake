# libascendcl exports only its API (api/ascendcl.map): fails when `nm -D --defined-only` lists a
# symbol outside the allowed patterns, or misses one the API must have.
# cmake -DNM=<nm> -DLIBRARY=<libascendcl.so> -P exports_test.cmake
cmake_minimum_required(VERSION 3.16)
foreach(variable NM LIBRARY)
  if(NOT ${variable})
    message(FATAL_ERROR "exports_test: set -D${variable}=")
  endif()
endforeach()
execute_process(COMMAND ${NM} -D --defined-only --demangle ${LIBRARY}
  OUTPUT_VARIABLE listing RESULT_VARIABLE failed ERROR_VARIABLE errors)
if(failed)
  message(FATAL_ERROR "exports_test: ${NM} failed on ${LIBRARY}: ${errors}")
endif()

set(allowed
  "^(acl|mstx)[A-Za-z0-9_]*$"                       # CANN's C API
  "^block_(idx|num)$"                                # the kernel API's block variables
  "^(threadIdx|blockIdx|blockDim|gridDim)$"          # the SIMT builtins (canopy/kernel/simt/simt.h)
  "^canopy_(register|unregister)_core_split$"        # what canopy-core-link's objects call
  "^canopy::kernel::"                                # the launcher, registry, pipes and faults
  "^(typeinfo|typeinfo name|vtable) for canopy::kernel::"
  "^canopy::soc::(modelled_name\\(\\)|note_program_part\\(unsigned int\\))$"  # the modelled SoC's choice
  "^canopy::api::report_library_error\\(char const\\*, int, char const\\*\\)$")
# A few the API must export, so that an empty or foreign listing cannot pass.
set(required aclInit aclrtLaunchKernel aclrtGetHardwareSyncAddr aclprofInit mstxMarkA block_idx threadIdx
  canopy_register_core_split)

string(REPLACE "\n" ";" lines "${listing}")
set(unexpected "")
set(names "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-fA-F]* +[A-Za-z] (.+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  list(APPEND names "${name}")
  set(ok FALSE)
  foreach(pattern IN LISTS allowed)
    if(name MATCHES "${pattern}")
      set(ok TRUE)
      break()
    endif()
  endforeach()
  if(NOT ok)
    string(APPEND unexpected "  ${name}\n")
  endif()
endforeach()
list(LENGTH names count)
foreach(name IN LISTS required)
  if(NOT name IN_LIST names)
    message(FATAL_ERROR "exports_test: ${LIBRARY} does not export ${name} (${count} symbols)")
  endif()
endforeach()
if(unexpected)
  string(REGEX MATCHALL "\n" newlines "${unexpected}")
  list(LENGTH newlines unexpected_count)
  message(FATAL_ERROR "exports_test: ${LIBRARY} exports ${unexpected_count} of its ${count} symbols outside "
    "api/ascendcl.map's patterns:\n${unexpected}")
endif()
message(STATUS "exports_test: ${count} symbols, all within the API's patterns")
