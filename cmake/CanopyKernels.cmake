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
# LAUNCH_HEADERS <dir> also gives every extern "C" __global__ kernel a source defines CANN's
# generated launch function, `uint32_t aclrtlaunch_<kernel>(uint32_t numBlocks, aclrtStream stream,
# args...)`, compiled into <target>, declared in <dir>/aclrtlaunch_<kernel>.h together with
# `ACLRT_LAUNCH_KERNEL(kernel)` (which names it). The headers are plain C++ over acl/acl_base.h,
# for host code that does not see the kernel. As in CANN, a __gm__ pointer parameter is taken as
# void* and a structure passed by value is taken by pointer. The headers are written when CMake
# configures (so that host code compiling in parallel finds them) and again when a source changes.
#
# Works in-tree and from the installed package: everything it uses is found relative to this file.
include_guard(GLOBAL)
# Functions keep the policies of the file that defines them: these, whatever the including project asks.
cmake_policy(VERSION 3.18...3.25)

function(canopy_add_kernels target)
  # Found beside this file from the function itself: a variable set when the file is included
  # would be visible only in the folder that included it first (include_guard skips the others).
  set(rewrite_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CanopyKernelRewrite.cmake")
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

  set(copies_dir "${CMAKE_CURRENT_BINARY_DIR}/canopy_kernels/${target}")
  set(header_include "")
  if(ARG_LAUNCH_HEADERS)
    set(header_include ";${ARG_LAUNCH_HEADERS}")
  endif()
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
    set(compiled "${output}")
    if(ARG_LAUNCH_HEADERS)
      _canopy_write_launch_functions("${input}" "${output}" "${ARG_LAUNCH_HEADERS}" launch_source)
      if(launch_source)
        # The launch functions need the kernels' own types: their file includes the copy and is
        # compiled in its place. The copy stays a source of the target so that it is generated.
        target_sources(${target} PRIVATE "${output}")
        set_source_files_properties("${output}" TARGET_DIRECTORY ${target} PROPERTIES
          GENERATED TRUE HEADER_FILE_ONLY TRUE)
        set(compiled "${launch_source}")
        set_source_files_properties("${compiled}" TARGET_DIRECTORY ${target} PROPERTIES
          OBJECT_DEPENDS "${output}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${input}")
      endif()
    endif()
    target_sources(${target} PRIVATE "${compiled}")
    # The copy lives elsewhere: its quoted includes are still found beside the original.
    set_source_files_properties("${compiled}" TARGET_DIRECTORY ${target} PROPERTIES
      GENERATED TRUE
      LANGUAGE CXX
      INCLUDE_DIRECTORIES "${input_dir}${header_include}"
      COMPILE_OPTIONS "-include;canopy/kernel/launch.h")
  endforeach()
  target_link_libraries(${target} PRIVATE canopy::ascendcl)
endfunction()

# The source text with comments removed (kernel signatures are read from code only).
function(_canopy_strip_comments text out)
  set(result "")
  while(TRUE)
    string(FIND "${text}" "/*" open)
    if(open EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${text}" 0 ${open} before)
    string(APPEND result "${before} ")
    math(EXPR after_open "${open} + 2")
    string(SUBSTRING "${text}" ${after_open} -1 text)
    string(FIND "${text}" "*/" close)
    if(close EQUAL -1)
      set(text "")
      break()
    endif()
    math(EXPR after_close "${close} + 2")
    string(SUBSTRING "${text}" ${after_close} -1 text)
  endwhile()
  string(APPEND result "${text}")
  string(REGEX REPLACE "//[^\n]*" "" result "${result}")
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Splits a parameter list at its top-level commas into a list (a parameter holds no semicolon).
function(_canopy_split_parameters text out)
  string(LENGTH "${text}" length)
  set(depth 0)
  set(piece "")
  set(pieces "")
  set(index 0)
  while(index LESS length)
    string(SUBSTRING "${text}" ${index} 1 c)
    if(c MATCHES "[(<[]")
      math(EXPR depth "${depth} + 1")
    elseif(c MATCHES "[])>]")
      math(EXPR depth "${depth} - 1")
    endif()
    if(c STREQUAL "," AND depth EQUAL 0)
      string(APPEND pieces "${piece};")
      set(piece "")
    else()
      string(APPEND piece "${c}")
    endif()
    math(EXPR index "${index} + 1")
  endwhile()
  string(APPEND pieces "${piece}")
  set(${out} "${pieces}" PARENT_SCOPE)
endfunction()

# For the extern "C" __global__ kernels `input` defines (templates have no C name and are left out),
# writes <header_dir>/aclrtlaunch_<kernel>.h and a source that includes the rewritten copy `copy`
# and defines the launch functions; sets `out` to that source, or to "" when `input` defines none.
function(_canopy_write_launch_functions input copy header_dir out)
  file(READ "${input}" text)
  _canopy_strip_comments("${text}" text)
  set(identifier "[A-Za-z_][A-Za-z0-9_]*")
  set(definitions "")
  set(includes "")
  set(written "")
  while(TRUE)
    string(FIND "${text}" "__global__" at)
    if(at EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${text}" 0 ${at} before)
    string(SUBSTRING "${text}" ${at} -1 text)
    string(SUBSTRING "${text}" 10 -1 text)
    # The declaration this __global__ belongs to starts after the last ; { or } before it.
    string(REGEX MATCH "[^;{}]*$" declaration_start "${before}")
    string(FIND "${text}" "(" open)
    if(open EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${text}" 0 ${open} head)
    string(REGEX MATCH "(${identifier})[ \t\r\n]*$" name_match "${head}")
    set(name "${CMAKE_MATCH_1}")
    math(EXPR after_open "${open} + 1")
    string(SUBSTRING "${text}" ${after_open} -1 text)
    # The parameter list ends at the parenthesis matching `open`.
    string(LENGTH "${text}" length)
    set(depth 1)
    set(index 0)
    while(index LESS length AND depth GREATER 0)
      string(SUBSTRING "${text}" ${index} 1 c)
      if(c STREQUAL "(")
        math(EXPR depth "${depth} + 1")
      elseif(c STREQUAL ")")
        math(EXPR depth "${depth} - 1")
      endif()
      math(EXPR index "${index} + 1")
    endwhile()
    math(EXPR parameters_length "${index} - 1")
    string(SUBSTRING "${text}" 0 ${parameters_length} parameters)
    string(SUBSTRING "${text}" ${index} -1 text)
    string(REGEX MATCH "^[ \t\r\n]*{" is_definition "${text}")
    if(NOT is_definition OR NOT name OR declaration_start MATCHES "template" OR
       NOT declaration_start MATCHES "extern[ \t\r\n]*\"C\"" OR name IN_LIST written)
      continue()
    endif()
    list(APPEND written "${name}")

    _canopy_split_parameters("${parameters}" pieces)
    set(declared "uint32_t numBlocks, aclrtStream stream")
    set(forwarded "")
    set(position 0)
    foreach(piece IN LISTS pieces)
      string(STRIP "${piece}" piece)
      string(REGEX REPLACE "[ \t\r\n]*=.*$" "" piece "${piece}")
      if(piece STREQUAL "" OR piece STREQUAL "void")
        continue()
      endif()
      string(REGEX REPLACE "[ \t\r\n]+" " " piece "${piece}")
      # `type name`, or a type alone for an unnamed parameter.
      set(type "${piece}")
      set(parameter "arg${position}")
      if(piece MATCHES "^(.*[^A-Za-z0-9_ ]|.*[A-Za-z0-9_] )[ ]*(${identifier})$")
        string(STRIP "${CMAKE_MATCH_1}" type)
        set(parameter "${CMAKE_MATCH_2}")
        if(type MATCHES "^((const|volatile) ?)*$")
          set(type "${piece}")
          set(parameter "arg${position}")
        endif()
      endif()
      string(REGEX REPLACE "(^| )(const|volatile|__restrict__|__restrict)( |$)" " " bare "${type}")
      string(STRIP "${bare}" bare)
      if(type MATCHES "\\*|GM_ADDR|__gm__")
        set(host_type "void*")
      elseif(bare MATCHES "^(bool|float|double|char|(signed |unsigned )?(char|short|int|long|long long)|unsigned|(u?int(8|16|32|64)_t)|size_t|ptrdiff_t)$")
        set(host_type "${bare}")
      else()
        set(host_type "${bare}*")
      endif()
      string(APPEND declared ", ${host_type} ${parameter}")
      if(forwarded)
        string(APPEND forwarded ", ")
      endif()
      string(APPEND forwarded "${parameter}")
      math(EXPR position "${position} + 1")
    endforeach()

    string(TOUPPER "${name}" guard)
    set(header "// Generated by canopy_add_kernels from ${input}: the launch function of kernel ${name}.\n")
    string(APPEND header "#ifndef CANOPY_ACLRTLAUNCH_${guard}_H\n#define CANOPY_ACLRTLAUNCH_${guard}_H\n")
    string(APPEND header "#include <stdint.h>\n\n#include \"acl/acl_base.h\"\n\n")
    string(APPEND header "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n\n")
    string(APPEND header "// Enqueues ${name} on `stream` with numBlocks blocks; returns 0 or the aclError.\n")
    string(APPEND header "extern \"C\" uint32_t aclrtlaunch_${name}(${declared});\n\n#endif\n")
    _canopy_write_if_different("${header_dir}/aclrtlaunch_${name}.h" "${header}")
    if(forwarded)
      set(forwarded ", ${forwarded}")
    endif()
    string(APPEND definitions "\nextern \"C\" uint32_t aclrtlaunch_${name}(${declared}) {\n"
      "    return ::canopy::kernel::WrapperLaunch<${name}>(\"${name}\")(numBlocks, stream${forwarded});\n}\n")
    string(APPEND includes "#include \"aclrtlaunch_${name}.h\"\n")
  endwhile()

  if(NOT written)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(source "${copy}.aclrtlaunch.cpp")
  _canopy_write_if_different("${source}"
    "// Generated by canopy_add_kernels: ${input} with the launch functions of its kernels.\n#include \"${copy}\"\n\n${includes}${definitions}")
  set(${out} "${source}" PARENT_SCOPE)
endfunction()

# Rewrites `file` only when its content changes, so that what includes it is not rebuilt for nothing.
function(_canopy_write_if_different file content)
  if(EXISTS "${file}")
    file(READ "${file}" existing)
    if(existing STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${content}")
endfunction()
