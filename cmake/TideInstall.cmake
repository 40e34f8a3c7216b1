# `cmake --install` rules: the library, its headers, a CMake package (find_package(tide) gives
# tide::tide) and a pkg-config file, plus the tide CLI when it is built. Nothing else (tests,
# benchmarks, examples) is installed. Components: `runtime` (libtide.so.0 and the CLI) and
# `dev` (headers, the libtide.so link, the CMake package, tide.pc); the Python package's build
# installs a component of its own.
#
# Note [Installed interface]: every dependency is linked PRIVATE and no public header includes
# a third-party or CUDA header (tide/detail/build_config.h, generated, is included by src/ and
# tests/ only, so it is not installed), so tide::tide carries only its include directory and
# cxx_std_20: a consumer needs neither fmt, nlohmann-json, OpenBLAS, MPI nor the CUDA toolkit
# to compile against it. libtide.so finds its own libraries through its RUNPATH, which keeps
# the directories outside the linker's defaults that the build linked from (CUDA's, Open MPI's).
# (The exported targets file names fmt::fmt as a "link dependent" library of tide::tide: a
# -rpath-link hint that CMake ignores where the consumer has no such target.)
# tests/install builds README.md's example against an installed tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TIDE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tide)

# libtide.so links nothing from the build tree, so its RUNPATH is the same built and installed:
# it is linked with the install one. (A RUNPATH that `cmake --install` rewrites is linked with a
# trailing ':' for room, an empty entry that the dynamic loader reads as the working directory;
# and python/'s package installs the build tree's libtide.so as it is.)
set_target_properties(tide PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON BUILD_WITH_INSTALL_RPATH ON)
if(TIDE_HAVE_CUDA)
  # The link path leaves out the directories CMake counts as nvcc's implicit ones
  # (targets/<arch>/lib, where the toolkit keeps libcudart), which the dynamic loader does not
  # search; the toolkit's library directory is named here instead.
  set_property(TARGET tide APPEND PROPERTY INSTALL_RPATH ${CUDAToolkit_LIBRARY_DIR})
endif()
install(TARGETS tide EXPORT tideTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tide DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT dev FILES_MATCHING PATTERN "*.h")

if(TARGET tide_cli)
  # bin/tide finds lib/libtide.so relative to itself, so the prefix can move. (The build tree's
  # tide, whose RUNPATH names build/src, is the one target left with CMake's trailing ':'.)
  file(RELATIVE_PATH bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
  set_target_properties(tide_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${bin_to_lib}"
                        INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS tide_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

install(EXPORT tideTargets NAMESPACE tide:: DESTINATION ${TIDE_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tideConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/tideConfig.cmake INSTALL_DESTINATION ${TIDE_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so find_package(tide 0.1) accepts 0.1.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/install/tideConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install/tideConfig.cmake
              ${PROJECT_BINARY_DIR}/install/tideConfigVersion.cmake
        DESTINATION ${TIDE_INSTALL_CMAKEDIR} COMPONENT dev)

# tide.pc is written at install time, not configure time: `cmake --install --prefix DIR`
# changes the prefix after configuring, and the file must name the prefix it was installed to
# (a ${pcfiledir}-relative one would not do: for /usr it gives -I/usr/lib/.../../../include,
# which pkg-config cannot recognise as a system directory to leave out).
configure_file(${CMAKE_CURRENT_LIST_DIR}/TideInstallPkgConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/TideInstallPkgConfig.cmake @ONLY)
install(SCRIPT ${PROJECT_BINARY_DIR}/install/TideInstallPkgConfig.cmake COMPONENT dev)
