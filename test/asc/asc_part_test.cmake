# The kernel compiler and the runtime on the two modelled parts (part_input.asc):
#   cmake -DDRIVER=<canopy-asc> -DWORK=<scratch dir> -P asc_part_test.cmake
# A kernel built with --npu-arch=dav-3510 sees the 950's macros and sizes and runs on a runtime that
# models a 950 SoC: the Ascend950PR_9599 when CANOPY_SOC_VERSION is unset (the program's kernels
# choose the part), another when it names one. Launched on an A2 runtime it fails, naming both
# parts, and so does a dav-2201 kernel on a 950 runtime. The driver takes bisheng's
# per-core names of the 950 (dav-c310-vec) and refuses unmodelled architectures.
cmake_minimum_required(VERSION 3.25)
foreach(required DRIVER WORK)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "usage: cmake -DDRIVER=<canopy-asc> -DWORK=<scratch dir> -P asc_part_test.cmake")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(source "${CMAKE_CURRENT_LIST_DIR}/part_input.asc")

# build(<name> <driver options...>): compiles and links part_input.asc into ${WORK}/<name>.
function(build name)
  execute_process(COMMAND "${DRIVER}" ${ARGN} -c "${source}" -o "${WORK}/${name}.o"
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "compiling part_input.asc with ${ARGN} failed: ${error}")
  endif()
  execute_process(COMMAND "${DRIVER}" "${WORK}/${name}.o" -o "${WORK}/${name}" RESULT_VARIABLE result ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "linking ${name} failed: ${error}")
  endif()
endfunction()

# run(<program> <soc or "">  <expected result> <fragments...>): runs the program with
# CANOPY_SOC_VERSION set to <soc> (unset for ""), expects its exit code and every fragment in its output.
function(run program soc expected)
  if(soc STREQUAL "")
    set(environment --unset=CANOPY_SOC_VERSION)
  else()
    set(environment CANOPY_SOC_VERSION=${soc})
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=CANOPY_CONFIG ${environment} "${WORK}/${program}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL expected)
    message(FATAL_ERROR "${program} with CANOPY_SOC_VERSION='${soc}' exited ${result}, expected ${expected}:\n${output}${error}")
  endif()
  foreach(fragment IN LISTS ARGN)
    string(FIND "${output}" "${fragment}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${program} with CANOPY_SOC_VERSION='${soc}' did not say '${fragment}':\n${output}${error}")
    endif()
  endforeach()
endfunction()

# refused(<text> <driver options...>): the driver refuses the compile, saying <text>.
function(refused text)
  execute_process(COMMAND "${DRIVER}" ${ARGN} -c "${source}" -o "${WORK}/refused.o"
                  RESULT_VARIABLE result ERROR_VARIABLE error)
  string(FIND "${error}" "${text}" at)
  if(result EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "canopy-asc ${ARGN} should refuse, saying '${text}'; it exited ${result}: ${error}")
  endif()
  if(EXISTS "${WORK}/refused.o")
    message(FATAL_ERROR "canopy-asc ${ARGN} wrote an object")
  endif()
endfunction()

build(part_3510 --npu-arch=dav-3510)
run(part_3510 Ascend950PR_9599 0 "[SUCCESS] part 3510")
run(part_3510 Ascend950DT_9581 0 "[SUCCESS] part 3510")
run(part_3510 "" 0 "[SUCCESS] part 3510" "soc Ascend950PR_9599")
run(part_3510 Ascend910B4 2 "[LAUNCH FAILED]" "kernel part_facts is built for dav-3510 (Ascend 950), but the runtime models Ascend910B4, a dav-2201 part (Atlas A2)")

build(part_2201 --npu-arch=dav-2201)
run(part_2201 "" 0 "[SUCCESS] part 2201" "soc Ascend910B4")
run(part_2201 Ascend950PR_9599 2 "[LAUNCH FAILED]" "kernel part_facts is built for dav-2201 (Atlas A2), but the runtime models Ascend950PR_9599, a dav-3510 part (Ascend 950)")

# bisheng's per-core spelling of the 950's vector core.
build(part_c310 --cce-aicore-arch=dav-c310-vec)
run(part_c310 Ascend950PR_9599 0 "[SUCCESS] part 3510")

# The per-core-type macros of each part, in each core type's compilation.
foreach(arch dav-3510 dav-2201)
  execute_process(COMMAND "${DRIVER}" --npu-arch=${arch} -c "${CMAKE_CURRENT_LIST_DIR}/part_macros_input.asc"
                  -o "${WORK}/macros-${arch}.o" RESULT_VARIABLE result ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "part_macros_input.asc for ${arch}: ${error}")
  endif()
  if(NOT EXISTS "${WORK}/macros-${arch}.o.canopy/core-passes")
    message(FATAL_ERROR "part_macros_input.asc for ${arch} was not compiled once per core type")
  endif()
endforeach()

refused("--npu-arch=dav-2002 (Atlas 300I/V Pro, Ascend 310P) is not modelled by Canopy" --npu-arch=dav-2002)
refused("unknown NPU architecture '--npu-arch=dav-9999'" --npu-arch=dav-9999)
