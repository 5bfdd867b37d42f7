# The install prefix as a CANN installation, so that CANN's own samples build and run against it
# with ASCEND_HOME_PATH=<prefix>:
#   <prefix>/set_env.sh, bin/setenv.bash       the environment (cmake/cann/setenv.bash)
#   <prefix>/include                           acl/ headers and the kernel API (kernel_operator.h)
#   <prefix>/lib64/libascendcl.so              the runtime; libacl_rt.so and libacl_rt_impl.so are the same library
#   <prefix>/lib64/lib<name>.so                CANN's other host libraries: linker scripts naming libascendcl
#                                              (api/CMakeLists.txt), libc_sec (securec.h) and libnnopbase
#   <prefix>/<arch>-linux/devlib               libascend_hal.so, the runtime under the driver's name
#   <prefix>/lib/cmake/canopy                 find_package(canopy CONFIG), with CMAKE_PREFIX_PATH=<prefix>
#   <prefix>/lib64/pkgconfig/canopy.pc         pkg-config
#   <prefix>/tikcpp/ascendc_kernel_cmake       ascendc.cmake (ascendc_library and companions)
# Libraries go to lib64 whatever GNUInstallDirs would choose: CANN's scripts look there. The CMake
# package goes to lib/cmake, which find_package searches on every system (Debian's CMake skips lib64).
include(CMakePackageConfigHelpers)
set(CANOPY_INSTALL_LIBDIR lib64)
set(canopy_package_dir lib/cmake/canopy)
set(canopy_cann_dir ${CMAKE_CURRENT_LIST_DIR})

install(TARGETS ascendcl EXPORT canopyTargets
  LIBRARY DESTINATION ${CANOPY_INSTALL_LIBDIR}
  INCLUDES DESTINATION include)
# CANN ships the runtime as libacl_rt.so and libacl_rt_impl.so beside libascendcl.so; programs link
# any of them by name or by path. One library under every name keeps one runtime state per process.
foreach(alias libacl_rt.so libacl_rt_impl.so)
  file(CREATE_LINK libascendcl.so.${PROJECT_VERSION_MAJOR} ${PROJECT_BINARY_DIR}/${alias} SYMBOLIC)
  install(FILES ${PROJECT_BINARY_DIR}/${alias} DESTINATION ${CANOPY_INSTALL_LIBDIR})
endforeach()
# CANN keeps the driver's libascend_hal in <arch>-linux/devlib, where catlass's examples link it from. On
# Canopy the runtime is the whole device stack: the name is libascendcl's, linked by a relative path so
# that the prefix stays relocatable.
set(canopy_devlib_dir ${CMAKE_SYSTEM_PROCESSOR}-linux/devlib)
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/devlib)
file(CREATE_LINK ../../${CANOPY_INSTALL_LIBDIR}/libascendcl.so.${PROJECT_VERSION_MAJOR}
  ${PROJECT_BINARY_DIR}/devlib/libascend_hal.so SYMBOLIC)
install(FILES ${PROJECT_BINARY_DIR}/devlib/libascend_hal.so DESTINATION ${canopy_devlib_dir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/api/include/ ${PROJECT_SOURCE_DIR}/kernels/include/ DESTINATION include)
# The error vocabulary (acl/error_codes), which the engine owns and acl_base.h includes.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/acl DESTINATION include)
# The modelled part, which tiling/platform/platform_ascendc.h answers for.
install(FILES ${PROJECT_SOURCE_DIR}/engine/include/canopy/soc.h DESTINATION include/canopy)

install(EXPORT canopyTargets NAMESPACE canopy:: DESTINATION ${canopy_package_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/canopyConfig.cmake.in ${PROJECT_BINARY_DIR}/canopyConfig.cmake
  INSTALL_DESTINATION ${canopy_package_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/canopyConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/canopyConfig.cmake ${PROJECT_BINARY_DIR}/canopyConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/CanopyKernels.cmake
  DESTINATION ${canopy_package_dir})
configure_file(${PROJECT_SOURCE_DIR}/cmake/canopy.pc.in ${PROJECT_BINARY_DIR}/canopy.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/canopy.pc DESTINATION ${CANOPY_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${canopy_cann_dir}/setenv.bash DESTINATION bin)
install(FILES ${canopy_cann_dir}/set_env.sh DESTINATION .)
install(FILES ${canopy_cann_dir}/ascendc.cmake DESTINATION tikcpp/ascendc_kernel_cmake)
