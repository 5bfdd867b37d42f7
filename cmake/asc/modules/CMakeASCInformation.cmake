# The ASC language's rules: how canopy-asc compiles .asc sources and links what contains them.
#
# Variables read when the language is enabled (project() or enable_language(ASC)):
#   CMAKE_ASC_ARCHITECTURES  NPU architecture the kernels are built for: dav-2201 (Atlas A2, the
#                            default) or dav-3510 (Ascend 950); others stop the configure step.
#   CMAKE_ASC_RUN_MODE       npu (default), cpu or sim, as in CANN; on Canopy all three run the
#                            kernels on its CPU model of the NPU.
#   CMAKE_ASC_STANDARD       C++ standard of ASC sources; else CMAKE_CXX_STANDARD; else 17 (as CANN).
#   CMAKE_ASC_FLAGS[_<CONFIG>] flags of every ASC compile and link (e.g. -Werror), initialized
#                            from the ASCFLAGS environment variable.
include(CMakeCommonLanguageInclude)

set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
set(CMAKE_ASC_LINK_OPTIONS_PIE "-fPIE;-pie")
set(CMAKE_ASC_LINK_OPTIONS_NO_PIE "-no-pie")
set(CMAKE_ASC_COMPILE_OPTIONS_VISIBILITY "-fvisibility=")
set(CMAKE_ASC_COMPILE_OPTIONS_VISIBILITY_INLINES_HIDDEN "-fvisibility-inlines-hidden")
set(CMAKE_ASC_COMPILE_OPTIONS_WARNING_AS_ERROR "-Werror")
set(CMAKE_ASC_LINKER_WRAPPER_FLAG "-Wl,")
set(CMAKE_ASC_LINKER_WRAPPER_FLAG_SEP ",")
# The platform's (GNU ld through the host compiler driver) shared-library and rpath flags.
foreach(kind SHARED_LIBRARY SHARED_MODULE)
  set(CMAKE_${kind}_ASC_FLAGS "${CMAKE_${kind}_C_FLAGS}")
  set(CMAKE_${kind}_CREATE_ASC_FLAGS "${CMAKE_${kind}_CREATE_C_FLAGS}")
endforeach()
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "${CMAKE_SHARED_LIBRARY_SONAME_C_FLAG}")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG}")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP "${CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG_SEP}")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RPATH_LINK_C_FLAG}")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG}")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP "${CMAKE_SHARED_LIBRARY_RUNTIME_C_FLAG_SEP}")
set(CMAKE_EXECUTABLE_RPATH_LINK_ASC_FLAG "${CMAKE_SHARED_LIBRARY_RPATH_LINK_C_FLAG}")
set(CMAKE_SHARED_LIBRARY_LINK_ASC_FLAGS "${CMAKE_SHARED_LIBRARY_LINK_C_FLAGS}")

# Dependencies on headers come from the compiler (-MD), as for C++.
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
if(CMAKE_GENERATOR MATCHES "Makefiles|WMake")
  set(CMAKE_ASC_DEPFILE_FORMAT gcc)
  set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)
endif()

# ---- Architecture, run mode and standard

if(NOT CMAKE_ASC_ARCHITECTURES)
  set(CMAKE_ASC_ARCHITECTURES dav-2201)
endif()
foreach(_asc_arch IN LISTS CMAKE_ASC_ARCHITECTURES)
  if(NOT _asc_arch MATCHES "^dav-(2201|3510)$")
    message(FATAL_ERROR "ASC: CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: unknown or unmodelled NPU "
                        "architecture '${_asc_arch}'; Canopy models dav-2201 (Atlas A2) and dav-3510 (Ascend 950).")
  endif()
endforeach()
# One part per build, as in CANN: the kernels of a program are built for one part and run on a
# runtime that models a SoC of it (CANOPY_SOC_VERSION).
list(REMOVE_DUPLICATES CMAKE_ASC_ARCHITECTURES)
list(LENGTH CMAKE_ASC_ARCHITECTURES _asc_arch_count)
if(_asc_arch_count GREATER 1)
  message(FATAL_ERROR "ASC: CMAKE_ASC_ARCHITECTURES=${CMAKE_ASC_ARCHITECTURES}: one architecture per build "
                      "(dav-2201 or dav-3510).")
endif()
set(_asc_arch_flag "--npu-arch=${CMAKE_ASC_ARCHITECTURES}")

if(NOT CMAKE_ASC_RUN_MODE)
  set(CMAKE_ASC_RUN_MODE npu)
endif()
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
  message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}' is unsupported: npu, cpu or sim.")
endif()
if(NOT CMAKE_ASC_RUN_MODE STREQUAL "npu")
  message(STATUS "ASC: run mode ${CMAKE_ASC_RUN_MODE}: on Canopy the kernels run on its CPU model of the NPU, as in npu mode")
endif()

if(CMAKE_ASC_STANDARD)
  set(_asc_standard "${CMAKE_ASC_STANDARD}")
elseif(CMAKE_CXX_STANDARD)
  set(_asc_standard "${CMAKE_CXX_STANDARD}")
else()
  set(_asc_standard "${CMAKE_ASC_STANDARD_DEFAULT}")
endif()
if(NOT _asc_standard MATCHES "^(17|20|23)$")
  message(FATAL_ERROR "ASC: C++ standard '${_asc_standard}' (CMAKE_ASC_STANDARD or CMAKE_CXX_STANDARD) is not "
                      "supported: 17, 20 or 23 (Canopy's kernel headers need C++17).")
endif()

# ---- Flags

set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
if(NOT DEFINED CMAKE_ASC_FLAGS_DEBUG_INIT)
  set(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_RELEASE_INIT)
  set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT)
  set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_MINSIZEREL_INIT)
  set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
endif()
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")

# Kernels are optimized unless the build type says otherwise (the flag comes before <FLAGS>, so a
# Debug build's -O0 wins): bisheng optimizes kernels by default, and on the CPU model unoptimized
# kernel code runs an order of magnitude slower.
set(_asc_compile_flags "${_asc_arch_flag} --run-mode=${CMAKE_ASC_RUN_MODE} -std=c++${_asc_standard} -O2")

# ---- Rules

if(NOT CMAKE_ASC_COMPILE_OBJECT)
  set(CMAKE_ASC_COMPILE_OBJECT
    "<CMAKE_ASC_COMPILER> ${_asc_compile_flags} <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c <SOURCE>")
endif()
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
  set(CMAKE_ASC_LINK_EXECUTABLE
    "<CMAKE_ASC_COMPILER> <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
  set(CMAKE_ASC_CREATE_SHARED_LIBRARY
    "<CMAKE_ASC_COMPILER> <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
# A module of kernels is a shared object, what aclrtBinaryLoadFromFile loads on Canopy.
if(NOT CMAKE_ASC_CREATE_SHARED_MODULE)
  set(CMAKE_ASC_CREATE_SHARED_MODULE
    "<CMAKE_ASC_COMPILER> <CMAKE_SHARED_MODULE_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_MODULE_CREATE_ASC_FLAGS> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_CREATE)
  set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_APPEND)
  set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_FINISH)
  set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
endif()

unset(_asc_arch)
set(CMAKE_ASC_INFORMATION_LOADED 1)
