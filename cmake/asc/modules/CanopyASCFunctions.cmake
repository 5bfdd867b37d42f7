# CANN's helper functions of the ASC package (find_package(ASC)), over the ASC language. On Canopy
# one compiler builds a source's host and kernel code, so kernel-only and host-only settings of
# a target are the target's settings for its ASC sources.
include_guard(GLOBAL)

# ascendc_library(<name> SHARED|STATIC <sources...>): a library whose sources compile as ASC.
function(ascendc_library target type)
  if(NOT type MATCHES "^(SHARED|STATIC)$")
    message(FATAL_ERROR "ascendc_library(${target}): the type is SHARED or STATIC, not ${type}")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${target}): no source given")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${target} ${type} ${ARGN})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE ASC)
endfunction()

# ascendc_compile_definitions(<name> PRIVATE|PUBLIC|INTERFACE <definitions...>), -D optional.
function(ascendc_compile_definitions target scope)
  target_compile_definitions(${target} ${scope} ${ARGN})
endfunction()

# ascendc_compile_options(<name> <scope> <kernel options...> [-forward-options-to-host-compiler
# <host options...>]): both lists apply to the ASC sources of <name>.
function(ascendc_compile_options target scope)
  list(REMOVE_ITEM ARGN -forward-options-to-host-compiler)
  if(ARGN)
    list(JOIN ARGN "$<SEMICOLON>" options)
    target_compile_options(${target} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:${options}>")
  endif()
endfunction()

# ascendc_include_directories(<name> <scope> <dirs...>)
function(ascendc_include_directories target scope)
  target_include_directories(${target} ${scope} ${ARGN})
endfunction()
