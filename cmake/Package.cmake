# Installation of the library as a package (included by lib/CMakeLists.txt when SHAKEDOWN_INSTALL is on): the
# library, its public headers, shakedownConfig.cmake + shakedownConfigVersion.cmake for find_package(shakedown),
# and shakedown.pc for pkg-config. shakedown::testing and shakedown/testing.h are never installed (docs/abi.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/shakedown)
install(TARGETS shakedown EXPORT shakedownTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/shakedown DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT shakedownTargets NAMESPACE shakedown:: DESTINATION ${_cmakedir})

# The library has no dependency of its own, so the config file only loads the targets. Compatibility follows the
# SONAME (lib/CMakeLists.txt, docs/abi.md): while MAJOR is 0 every 0.MINOR may break the interface, so
# find_package(shakedown 0.1) accepts 0.1.x only (SameMinorVersion), not 0.2; from 1.0 on, SameMajorVersion.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_compatibility SameMinorVersion)
else()
  set(_compatibility SameMajorVersion)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/shakedownConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/shakedownConfig.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/shakedownConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY ${_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/package/shakedownConfig.cmake
              ${PROJECT_BINARY_DIR}/package/shakedownConfigVersion.cmake DESTINATION ${_cmakedir})

# shakedown.pc, relocatable: the prefix is found from the .pc file's own place (${pcfiledir}).
set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  message(FATAL_ERROR "shakedown.pc needs relative CMAKE_INSTALL_LIBDIR and CMAKE_INSTALL_INCLUDEDIR")
endif()
file(RELATIVE_PATH SHAKEDOWN_PC_TO_PREFIX /prefix/${_pcdir} /prefix)
string(REGEX REPLACE "/$" "" SHAKEDOWN_PC_TO_PREFIX "${SHAKEDOWN_PC_TO_PREFIX}")
# The C++ runtime (SHAKEDOWN_CXX_RUNTIME, lib/CMakeLists.txt) and libm: in Libs for the static library, so that a C
# program linked with `pkg-config --libs shakedown` links (no --static needed); Libs.private for the shared one,
# which records them itself.
set(_runtime -lm)
if(SHAKEDOWN_CXX_RUNTIME)
  set(_runtime "-l${SHAKEDOWN_CXX_RUNTIME} -lm")
endif()
if(BUILD_SHARED_LIBS)
  set(SHAKEDOWN_PC_LIBS "")
  set(SHAKEDOWN_PC_LIBS_PRIVATE "Libs.private: ${_runtime}")
else()
  set(SHAKEDOWN_PC_LIBS " ${_runtime}")
  set(SHAKEDOWN_PC_LIBS_PRIVATE "")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/shakedown.pc.in ${PROJECT_BINARY_DIR}/package/shakedown.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/shakedown.pc DESTINATION ${_pcdir})
