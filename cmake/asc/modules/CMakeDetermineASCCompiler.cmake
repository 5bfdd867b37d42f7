# Enabling the ASC language (project(... LANGUAGES ASC)): its compiler is Canopy's driver, canopy-asc,
# which find_package(ASC) located (asc-config.cmake sets CANOPY_ASC_DRIVER).
if(NOT CMAKE_ASC_COMPILER)
  if(NOT CANOPY_ASC_DRIVER)
    message(FATAL_ERROR "The ASC language needs find_package(ASC) before project(... LANGUAGES ASC): "
                        "it locates Canopy's ASC compiler (source P/bin/setenv.bash of a Canopy install at P first).")
  endif()
  set(CMAKE_ASC_COMPILER "${CANOPY_ASC_DRIVER}" CACHE FILEPATH "ASC compiler (Canopy's canopy-asc driver)")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "ASC compiler not found: ${CMAKE_ASC_COMPILER}")
endif()

if(NOT CMAKE_ASC_SOURCE_FILE_EXTENSIONS)
  set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
endif()
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_COMPILER_ID "Canopy")
set(CMAKE_ASC_COMPILER_VERSION "${CANOPY_ASC_VERSION}")
set(CMAKE_ASC_COMPILER_ARCHITECTURE_ID "${CMAKE_SYSTEM_PROCESSOR}")
# CANN's ASC compiler compiles C++17 unless told otherwise; so does this one.
if(NOT CMAKE_ASC_STANDARD_DEFAULT)
  set(CMAKE_ASC_STANDARD_DEFAULT 17)
endif()

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
  "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
