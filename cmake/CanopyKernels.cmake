# canopy_add_kernels(<target> [STATIC|SHARED|MODULE|OBJECT] SOURCES <files...> [LAUNCH_HEADERS <dir>])
#
# Compiles Ascend C sources with Canopy's kernel compiler (canopy-asc, installed as bisheng; see
# cmake/asc/canopy-asc.in): kernel sources (`extern "C" __global__ __aicore__ void name(...)`) and
# host sources that launch with `name<<<numBlocks, dynUBufSize, stream>>>(args...)`. The compiler
# rewrites each launch, registers each kernel a source defines and compiles the source with clang;
# diagnostics name the original files and lines. Each source becomes an object of <target>, built
# with the target's include directories, compile definitions and compile options (its own and
# those of what it links), CMAKE_CXX_FLAGS with the build type's flags, and the target's
# CXX_STANDARD. The target's other sources compile as before.
#
# <target> is an existing target to add the sources to, or, with a library type, a new library:
# a SHARED (or MODULE) library of kernels is what aclrtBinaryLoadFromFile loads. The target links
# canopy::ascendcl (privately), which brings the kernel API headers.
#
# LAUNCH_HEADERS <dir> also gives every extern "C" __global__ kernel a source defines CANN's
# generated launch function, `uint32_t aclrtlaunch_<kernel>(uint32_t numBlocks, aclrtStream stream,
# args...)`, compiled into <target>, declared in <dir>/aclrtlaunch_<kernel>.h together with
# `ACLRT_LAUNCH_KERNEL(kernel)` (which names it). The headers are plain C++ over acl/acl_base.h,
# for host code that does not see the kernel. As in CANN, a __gm__ pointer parameter is taken as
# void* and a structure passed by value is taken by pointer. The compiler writes them when it
# compiles the source: the targets that link <target> compile after it.
#
# Inside Canopy's build the build tree's copy of the compiler is used (built first); from the
# installed package, the install's bisheng, found relative to this file.
include_guard(GLOBAL)
# Functions keep the policies of the file that defines them: these, whatever the including project
# asks (CMP0116: the compiler's dependency files are read for the objects).
cmake_policy(VERSION 3.20...3.25)

function(canopy_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STATIC;SHARED;MODULE;OBJECT" "LAUNCH_HEADERS" "SOURCES")
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
  # The kernel compiler's objects are linked by the host C++ compiler, also in a target that has no
  # other source.
  get_target_property(linker_language ${target} LINKER_LANGUAGE)
  if(NOT linker_language)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  endif()

  # The compiler, and what a change of it rebuilds: inside Canopy's build, the build tree's driver
  # over the tools built before the kernels; else the installed bisheng (<prefix>/lib/cmake/canopy
  # holds this file).
  if(TARGET canopy-launch-rewrite)
    set(compiler "$<TARGET_FILE_DIR:canopy-launch-rewrite>/canopy-asc")
    set(compiler_depends canopy-launch-rewrite canopy-core-link canopy-kernel-passes
      "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/asc/canopy-asc.in")
  else()
    get_filename_component(prefix "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
    set(compiler "${prefix}/compiler/ccec_compiler/bin/bisheng")
    if(NOT EXISTS "${compiler}")
      message(FATAL_ERROR "canopy_add_kernels(${target}): the kernel compiler ${compiler} is missing from the install")
    endif()
    set(compiler_depends "${compiler}")
  endif()

  # The flags of the target's C++ compiles, as the kernel compiler takes them. The host compiler's own
  # include folders (/usr/include, which a package may name) are left out, as CMake leaves them out of
  # its compiles: given with -I, they break the standard library's #include_next.
  # (Empty entries, which a package's generator expressions leave, are left out too.)
  set(property "$<FILTER:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>,INCLUDE,.>")
  set(implicit "")
  foreach(dir IN LISTS CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" dir "${dir}")
    list(APPEND implicit "${dir}")
  endforeach()
  if(implicit)
    list(JOIN implicit "|" implicit)
    set(property "$<FILTER:${property},EXCLUDE,^(${implicit})/?$>")
  endif()
  set(flags "$<$<BOOL:${property}>:-I$<JOIN:${property},$<SEMICOLON>-I>>")
  set(property "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,INCLUDE,.>")
  list(APPEND flags "$<$<BOOL:${property}>:-D$<JOIN:${property},$<SEMICOLON>-D>>")
  set(property "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  list(APPEND flags "$<$<BOOL:${property}>:-std=c++${property}>")
  separate_arguments(cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
  list(APPEND flags ${cxx_flags})
  foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE)
    string(TOUPPER "${config}" config_upper)
    separate_arguments(config_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS_${config_upper}}")
    if(config_flags)
      list(JOIN config_flags "$<SEMICOLON>" config_flags)
      list(APPEND flags "$<$<CONFIG:${config}>:${config_flags}>")
    endif()
  endforeach()
  list(APPEND flags "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>" -fPIC)
  set(launch_functions "")
  if(ARG_LAUNCH_HEADERS)
    get_filename_component(header_dir "${ARG_LAUNCH_HEADERS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    set(launch_functions "--canopy-launch-functions=${header_dir}")
  endif()

  get_target_property(target_type ${target} TYPE)
  set(objects_dir "${CMAKE_CURRENT_BINARY_DIR}/canopy_kernels/${target}")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(input "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${input}")
      message(FATAL_ERROR "canopy_add_kernels(${target}): ${source} does not exist")
    endif()
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${input}")
    string(REPLACE "../" "__/" relative "${relative}")
    set(object "${objects_dir}/${relative}.o")
    get_filename_component(object_dir "${object}" DIRECTORY)
    file(MAKE_DIRECTORY "${object_dir}")
    add_custom_command(
      OUTPUT "${object}"
      COMMAND "${compiler}" ${launch_functions} ${flags} -MD -MT "${object}" -MF "${object}.d"
              -c "${input}" -o "${object}"
      DEPENDS "${input}" ${compiler_depends}
      DEPFILE "${object}.d"
      COMMENT "Compiling kernel source ${source} (${target})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    target_sources(${target} PRIVATE "${object}")
    set_source_files_properties("${object}" TARGET_DIRECTORY ${target} PROPERTIES
      GENERATED TRUE EXTERNAL_OBJECT TRUE)
    if(target_type STREQUAL "OBJECT_LIBRARY")
      # An object library passes on only the objects it compiles itself: these reach what links it
      # as link items.
      target_link_libraries(${target} INTERFACE "${object}")
    endif()
  endforeach()
  target_link_libraries(${target} PRIVATE canopy::ascendcl)
endfunction()
