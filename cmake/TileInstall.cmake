# `cmake --install`: tilec, tile-opt, libtile.so (the C interface and the C++
# runtime API), their headers, the Python package and a CMake package, so
# that another project can write
#
#   find_package(Tile REQUIRED)
#   target_link_libraries(app PRIVATE Tile::Runtime)   # C++ API
#   target_link_libraries(capp PRIVATE Tile::C)        # C API
#
# The installed tools and library find Debian's libMLIR/libLLVM through
# their RUNPATH (the directories they were linked against).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(tile tilec tile-opt PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS tile EXPORT TileTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tilec tile-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/tile-c/tile.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tile-c)
install(FILES include/tile/Runtime/Runtime.h include/tile/Runtime/Autotune.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tile/Runtime)
install(FILES include/tile/Support/KernelSignature.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tile/Support)
install(DIRECTORY python/tile DESTINATION ${CMAKE_INSTALL_LIBDIR}/python3/dist-packages
  PATTERN __pycache__ EXCLUDE)
install(EXPORT TileTargets NAMESPACE Tile::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tile)
configure_package_config_file(cmake/TileConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TileConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tile
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TileConfigVersion.cmake
  VERSION 0.1 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TileConfig.cmake
  ${PROJECT_BINARY_DIR}/TileConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tile)
