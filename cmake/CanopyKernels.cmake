# canopy_add_kernels(<target> [STATIC|SHARED|MODULE|OBJECT] SOURCES <files...>)
#
# Compiles Ascend C sources with the host C++ compiler: kernel sources (`extern "C" __global__
# __aicore__ void name(...)`) and host sources that launch with `name<<<numBlocks, dynUBufSize,
# stream>>>(args...)`. At build time each source is copied into the build folder with only the
# launch syntax rewritten into plain C++ and a CANOPY_REGISTER_KERNEL line after each kernel it
# defines (see CanopyKernelRewrite.cmake; line numbers and file names in diagnostics stay the
# original's), and the copy is compiled into <target> with canopy/kernel/launch.h force-included.
#
# <target> is an existing target to add the sources to, or, with a library type, a new library:
# a SHARED (or MODULE) library of kernels is what aclrtBinaryLoadFromFile loads. The target links
# canopy::ascendcl (privately), which brings the kernel API headers.
#
# Works in-tree and from the installed package: everything it uses is found relative to this file.
include_guard(GLOBAL)

function(canopy_add_kernels target)
  # Found beside this file from the function itself: a variable set when the file is included
  # would be visible only in the folder that included it first (include_guard skips the others).
  set(rewrite_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CanopyKernelRewrite.cmake")
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STATIC;SHARED;MODULE;OBJECT" "" "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "canopy_add_kernels(${target}): unexpected arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "canopy_add_kernels(${target}): SOURCES lists no file")
  endif()
  set(type "")
  foreach(candidate STATIC SHARED MODULE OBJECT)
    if(ARG_${candidate})
      if(type)
        message(FATAL_ERROR "canopy_add_kernels(${target}): give one library type, not ${type} and ${candidate}")
      endif()
      set(type ${candidate})
    endif()
  endforeach()
  if(TARGET ${target})
    if(type)
      message(FATAL_ERROR "canopy_add_kernels(${target}): the target exists already; ${type} is only for creating it")
    endif()
  elseif(type)
    add_library(${target} ${type})
  else()
    message(FATAL_ERROR "canopy_add_kernels(${target}): no such target; give STATIC, SHARED, MODULE or OBJECT to create a library")
  endif()
  if(NOT TARGET canopy::ascendcl)
    message(FATAL_ERROR "canopy_add_kernels(${target}): canopy::ascendcl is not defined (find_package(canopy) first)")
  endif()

  set(copies_dir "${CMAKE_CURRENT_BINARY_DIR}/canopy_kernels/${target}")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(input "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${input}")
      message(FATAL_ERROR "canopy_add_kernels(${target}): ${source} does not exist")
    endif()
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${input}")
    string(REPLACE "../" "__/" relative "${relative}")
    # Ascend C sources may end in .asc: the copy is compiled as C++ whatever its name.
    set(output "${copies_dir}/${relative}")
    if(NOT output MATCHES "\\.(cpp|cc|cxx|c\\+\\+)$")
      string(APPEND output ".cpp")
    endif()
    get_filename_component(input_dir "${input}" DIRECTORY)
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}" "-DINPUT=${input}" "-DOUTPUT=${output}" -P "${rewrite_script}"
      DEPENDS "${input}" "${rewrite_script}"
      COMMENT "Rewriting kernel launches of ${source}"
      VERBATIM)
    target_sources(${target} PRIVATE "${output}")
    # The copy lives elsewhere: its quoted includes are still found beside the original.
    set_source_files_properties("${output}" TARGET_DIRECTORY ${target} PROPERTIES
      GENERATED TRUE
      LANGUAGE CXX
      INCLUDE_DIRECTORIES "${input_dir}"
      COMPILE_OPTIONS "-include;canopy/kernel/launch.h")
  endforeach()
  target_link_libraries(${target} PRIVATE canopy::ascendcl)
endfunction()
