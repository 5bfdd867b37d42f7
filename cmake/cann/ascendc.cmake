# CANN's kernel build functions for projects that `include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)`,
# over canopy_add_kernels: the kernels are compiled by Canopy's kernel compiler (the install's
# bisheng) into libraries that run on Canopy.
#
#   ascendc_library(<name> STATIC|SHARED|OBJECT <sources...>)
#       A library of the kernels and of the host code in <sources> (launches with <<<>>>). What links
#       it also links the runtime and gets the include folder holding aclrtlaunch_<kernel>.h for
#       each extern "C" kernel (CANN's generated launch functions, see CanopyKernels.cmake).
#   ascendc_fatbin_library(<name> <sources...>)
#       The kernel binary that aclrtBinaryLoadFromFile loads, written at build time, as in CANN, to
#       ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o (on the CPU it is a loadable shared object).
#   ascendc_compile_definitions / ascendc_include_directories / ascendc_compile_options
#       (<name> PRIVATE|PUBLIC|INTERFACE <items...>): for the kernel sources of <name>.
#
# Lives in <prefix>/tikcpp/ascendc_kernel_cmake of a Canopy install: everything else is found
# relative to this file, so the install can move.
include_guard(GLOBAL)
# Functions keep the policies of the file that defines them: these, whatever the including project
# asks (CANN's samples say cmake_minimum_required(VERSION 3.16)).
cmake_policy(VERSION 3.18...3.25)

get_filename_component(_canopy_cann_prefix "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${_canopy_cann_prefix}")
endif()
find_package(canopy CONFIG REQUIRED PATHS "${_canopy_cann_prefix}/lib/cmake/canopy" NO_DEFAULT_PATH)

function(ascendc_library target type)
  string(TOUPPER "${type}" type)
  if(NOT type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${target}): the type is STATIC, SHARED or OBJECT, not ${type}")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${target}): no source given")
  endif()
  # As in CANN: headers under <build>/include/<name>, libraries under <build>/lib.
  set(header_dir "${CMAKE_BINARY_DIR}/include/${target}")
  canopy_add_kernels(${target} ${type} SOURCES ${ARGN} LAUNCH_HEADERS "${header_dir}")
  # A static or object library is linked into the program: the runtime goes with it.
  target_link_libraries(${target} INTERFACE canopy::ascendcl)
  target_include_directories(${target} INTERFACE "$<BUILD_INTERFACE:${header_dir}>")
  set_target_properties(${target} PROPERTIES
    ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  if(NOT type STREQUAL "OBJECT")
    include(GNUInstallDirs)
    install(TARGETS ${target}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(DIRECTORY "${header_dir}/" DESTINATION include/${target} OPTIONAL)
  endif()
endfunction()

function(ascendc_fatbin_library target)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${target}): no source given")
  endif()
  canopy_add_kernels(${target} MODULE SOURCES ${ARGN})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    SUFFIX ".o"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_INSTALL_PREFIX}/fatbin/${target}")
endfunction()

# CANN's three companions take the target, a scope and the items.
function(_canopy_ascendc_check_scope function target scope)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${function}(${target}): no such target (create it with ascendc_library first)")
  endif()
  if(NOT scope MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    message(FATAL_ERROR "${function}(${target}): the scope is PRIVATE, PUBLIC or INTERFACE, not ${scope}")
  endif()
endfunction()

function(ascendc_compile_definitions target scope)
  _canopy_ascendc_check_scope(ascendc_compile_definitions ${target} ${scope})
  target_compile_definitions(${target} ${scope} ${ARGN})
endfunction()

function(ascendc_include_directories target scope)
  _canopy_ascendc_check_scope(ascendc_include_directories ${target} ${scope})
  set(directories "")
  foreach(directory IN LISTS ARGN)
    get_filename_component(directory "${directory}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND directories "${directory}")
  endforeach()
  target_include_directories(${target} ${scope} ${directories})
endfunction()

# CANN splits the options at -forward-options-to-host-compiler: those before it are for the kernel
# compiler, those after for the host compiler. Here one compiler, bisheng, compiles a source's kernel
# and host code, as CANN's does for ascendc_library sources: both lists apply to the kernel sources.
function(ascendc_compile_options target scope)
  _canopy_ascendc_check_scope(ascendc_compile_options ${target} ${scope})
  list(REMOVE_ITEM ARGN -forward-options-to-host-compiler)
  target_compile_options(${target} ${scope} ${ARGN})
endfunction()
