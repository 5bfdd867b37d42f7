# Installs the ASC package (included by the top-level CMakeLists.txt): under <libdir>/cmake/asc,
# where find_package(ASC) finds it from CMAKE_PREFIX_PATH=<prefix>, the package config, the
# language's modules and the canopy-asc driver (Canopy's kernel compiler; also installed as bisheng
# where CANN installs bisheng). <libdir> is the runtime's (CANOPY_INSTALL_LIBDIR, lib64 in the CANN
# layout).
include(GNUInstallDirs)
if(CANOPY_INSTALL_LIBDIR)
  set(CANOPY_ASC_LIBDIR "${CANOPY_INSTALL_LIBDIR}")
else()
  set(CANOPY_ASC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
endif()
set(_canopy_asc_destination "${CANOPY_ASC_LIBDIR}/cmake/asc")
set(_canopy_asc_build "${PROJECT_BINARY_DIR}/asc")

# What canopy-asc knows of the install: the way up to the prefix from its own folder, where the
# launch rewrite is under the prefix, the clang that compiles kernels (kernels/compiler), and the
# include folders of Eigen (the kernel headers compute with it).
file(RELATIVE_PATH CANOPY_ASC_TO_PREFIX "/prefix/${_canopy_asc_destination}" "/prefix")
set(CANOPY_LAUNCH_REWRITE "${CANOPY_COMPILER_BINDIR}/canopy-launch-rewrite")
set(CANOPY_CORE_LINK "${CANOPY_COMPILER_BINDIR}/canopy-core-link")
set(CANOPY_KERNEL_PASSES "${CANOPY_COMPILER_BINDIR}/../lib/libcanopy-kernel-passes.so")
get_target_property(_canopy_asc_eigen Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
set(CANOPY_ASC_EXTRA_INCLUDES "")
foreach(dir IN LISTS _canopy_asc_eigen)
  string(APPEND CANOPY_ASC_EXTRA_INCLUDES " \"${dir}\"")
endforeach()
set(CANOPY_ASC_LAUNCH_REWRITE "$prefix/${CANOPY_LAUNCH_REWRITE}")
set(CANOPY_ASC_CORE_LINK "$prefix/${CANOPY_CORE_LINK}")
set(CANOPY_ASC_KERNEL_PASSES "$prefix/${CANOPY_KERNEL_PASSES}")
set(CANOPY_ASC_INCLUDES "\"$prefix/${CMAKE_INSTALL_INCLUDEDIR}\"${CANOPY_ASC_EXTRA_INCLUDES}")
set(CANOPY_ASC_RUNTIME_DIRS "\"$prefix/${CANOPY_ASC_LIBDIR}\" \"$prefix/lib64\" \"$prefix/lib\"")
configure_file("${CMAKE_CURRENT_LIST_DIR}/canopy-asc.in" "${_canopy_asc_build}/canopy-asc" @ONLY)
# The build tree's driver (beside the build's canopy-launch-rewrite; what canopy_add_kernels compiles the
# project's own kernel sources with): the same script over the build's tools, the source tree's
# headers and the build's libascendcl.
set(CANOPY_ASC_TO_PREFIX ".")
set(CANOPY_ASC_LAUNCH_REWRITE "$<TARGET_FILE:canopy-launch-rewrite>")
set(CANOPY_ASC_CORE_LINK "$<TARGET_FILE:canopy-core-link>")
set(CANOPY_ASC_KERNEL_PASSES "$<TARGET_FILE:canopy-kernel-passes>")
set(CANOPY_ASC_INCLUDES "")
foreach(dir "${PROJECT_SOURCE_DIR}/api/include" "${PROJECT_SOURCE_DIR}/engine/include"
            "${PROJECT_SOURCE_DIR}/engine/include/acl" "${PROJECT_SOURCE_DIR}/kernels/include")
  string(APPEND CANOPY_ASC_INCLUDES "\"${dir}\" ")
endforeach()
string(APPEND CANOPY_ASC_INCLUDES "${CANOPY_ASC_EXTRA_INCLUDES}")
set(CANOPY_ASC_RUNTIME_DIRS "\"$<TARGET_FILE_DIR:ascendcl>\"")
configure_file("${CMAKE_CURRENT_LIST_DIR}/canopy-asc.in" "${_canopy_asc_build}/build-tree/canopy-asc.in" @ONLY)
file(GENERATE OUTPUT "$<TARGET_FILE_DIR:canopy-launch-rewrite>/canopy-asc"
  INPUT "${_canopy_asc_build}/build-tree/canopy-asc.in"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
configure_file("${CMAKE_CURRENT_LIST_DIR}/asc-config.cmake.in" "${_canopy_asc_build}/asc-config.cmake" @ONLY)

install(FILES "${_canopy_asc_build}/asc-config.cmake" DESTINATION "${_canopy_asc_destination}")
install(PROGRAMS "${_canopy_asc_build}/canopy-asc" DESTINATION "${_canopy_asc_destination}")
# bisheng where CANN's projects and scripts look for it: links to the driver, which finds the
# prefix from its own real path.
foreach(_canopy_bisheng_dir "${CANOPY_COMPILER_BINDIR}" "${CMAKE_SYSTEM_PROCESSOR}-linux/ccec_compiler/bin")
  file(RELATIVE_PATH _canopy_bisheng_target "/prefix/${_canopy_bisheng_dir}" "/prefix/${_canopy_asc_destination}/canopy-asc")
  install(CODE "
    file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_canopy_bisheng_dir}\")
    file(CREATE_LINK \"${_canopy_bisheng_target}\" \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_canopy_bisheng_dir}/bisheng\" SYMBOLIC)")
endforeach()
install(FILES
  "${CMAKE_CURRENT_LIST_DIR}/modules/CMakeDetermineASCCompiler.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/modules/CMakeASCCompiler.cmake.in"
  "${CMAKE_CURRENT_LIST_DIR}/modules/CMakeASCInformation.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/modules/CMakeTestASCCompiler.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/modules/CanopyASCFunctions.cmake"
  DESTINATION "${_canopy_asc_destination}/modules")
# CANN's host libraries that the samples link by name (target_link_libraries(demo PRIVATE tiling_api
# register platform graph_base unified_dlog ascendalog)) even when they call nothing of them: what Canopy has of them is in libascendcl,
# so each name is a linker script that links libascendcl. A program calling one of their functions
# that Canopy lacks fails to link naming that function.
foreach(name tiling_api register platform graph_base unified_dlog ascendalog)
  file(WRITE "${_canopy_asc_build}/lib${name}.so"
    "/* CANN's lib${name}: on Canopy, its functions are those of libascendcl. */\nINPUT(-lascendcl)\n")
  install(FILES "${_canopy_asc_build}/lib${name}.so" DESTINATION "${CANOPY_ASC_LIBDIR}")
endforeach()
unset(_canopy_asc_destination)
unset(_canopy_asc_build)
unset(_canopy_asc_eigen)
unset(_canopy_bisheng_dir)
unset(_canopy_bisheng_target)
