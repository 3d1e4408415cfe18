# Shared part of the cross toolchain files: compilers, the gcc cross sysroot, the foreign-package cache
# of ci/cross-deps, and the qemu-user emulator every test runs under. Included by <arch>.cmake, which
# sets SHAKEDOWN_CROSS_TRIPLE, CMAKE_SYSTEM_PROCESSOR, SHAKEDOWN_QEMU_ARCH and SHAKEDOWN_DEB_ARCH first.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_LIBRARY_ARCHITECTURE ${SHAKEDOWN_CROSS_TRIPLE})
set(SHAKEDOWN_CROSS_SYSROOT /usr/${SHAKEDOWN_CROSS_TRIPLE})  # from the g++-<triple> packages

# Compiler: gcc-12 (the Debian cross packages) or clang-19, which finds the same gcc installation.
if(NOT SHAKEDOWN_CROSS_COMPILER)
  set(SHAKEDOWN_CROSS_COMPILER "$ENV{SHAKEDOWN_CROSS_COMPILER}")
endif()
if(NOT SHAKEDOWN_CROSS_COMPILER)
  set(SHAKEDOWN_CROSS_COMPILER gcc)
endif()
set(SHAKEDOWN_CROSS_COMPILER "${SHAKEDOWN_CROSS_COMPILER}" CACHE STRING "cross compiler family: gcc or clang")
if(SHAKEDOWN_CROSS_COMPILER STREQUAL "clang")
  set(CMAKE_C_COMPILER clang-19)
  set(CMAKE_CXX_COMPILER clang++-19)
  set(CMAKE_ASM_COMPILER clang-19)
  set(CMAKE_C_COMPILER_TARGET ${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_CXX_COMPILER_TARGET ${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_ASM_COMPILER_TARGET ${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
  set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")
  # The host clang has no target sanitizer/libFuzzer runtimes: ci/cross-deps builds a resource dir
  # with the host headers and the extracted libclang-rt-19-dev:<arch> libraries (linking needs it only).
  set(_resource_dir "$ENV{HOME}/.cache/shakedown/cross/${SHAKEDOWN_DEB_ARCH}/clang-resource")
  if(DEFINED ENV{SHAKEDOWN_CROSS_CACHE})
    set(_resource_dir "$ENV{SHAKEDOWN_CROSS_CACHE}/${SHAKEDOWN_DEB_ARCH}/clang-resource")
  endif()
  if(EXISTS ${_resource_dir}/lib/linux)
    string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -resource-dir=${_resource_dir}")
    string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " -resource-dir=${_resource_dir}")
  endif()
else()
  set(CMAKE_C_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-gcc-12)
  set(CMAKE_CXX_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-g++-12)
  set(CMAKE_ASM_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-gcc-12)
endif()

# ci/cross-deps extracts foreign .debs (OpenSSL, libclang-rt) and builds GoogleTest for the target
# here; nothing foreign is ever installed into the system.
if(NOT SHAKEDOWN_CROSS_CACHE)
  if(DEFINED ENV{SHAKEDOWN_CROSS_CACHE})
    set(SHAKEDOWN_CROSS_CACHE "$ENV{SHAKEDOWN_CROSS_CACHE}")
  else()
    set(SHAKEDOWN_CROSS_CACHE "$ENV{HOME}/.cache/shakedown/cross")
  endif()
endif()
set(SHAKEDOWN_CROSS_CACHE "${SHAKEDOWN_CROSS_CACHE}" CACHE PATH "ci/cross-deps cache (foreign debs, target GoogleTest)")
set(_deb_root ${SHAKEDOWN_CROSS_CACHE}/${SHAKEDOWN_DEB_ARCH}/root)
set(_gtest_root ${SHAKEDOWN_CROSS_CACHE}/${SHAKEDOWN_DEB_ARCH}/gtest)

# Target libraries come only from the sysroot and the cache; host programs from the host.
set(CMAKE_FIND_ROOT_PATH ${SHAKEDOWN_CROSS_SYSROOT} ${_deb_root} ${_gtest_root} ${SHAKEDOWN_CROSS_CACHE}/noarch)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
if(EXISTS ${_gtest_root}/lib/cmake/GTest/GTestConfig.cmake)
  set(GTest_DIR ${_gtest_root}/lib/cmake/GTest CACHE PATH "target GoogleTest (ci/cross-deps)")
endif()
# The extracted libssl-dev has libcrypto.a: link it statically so that the test binaries need no
# foreign library path at run time.
set(OPENSSL_USE_STATIC_LIBS TRUE)
# Debian keeps OpenSSL's arch-specific headers (opensslconf.h, configuration.h) in the multiarch folder,
# which the cross compiler does not search by itself; that folder holds nothing else.
if(EXISTS ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
endif()

# Every test runs under qemu-user (binfmt_misc is not mounted here), with the CPU models of
# ci/matrix/<arch>.txt: cmake/Matrix.cmake sets CMAKE_CROSSCOMPILING_EMULATOR from the first one.
find_program(SHAKEDOWN_QEMU qemu-${SHAKEDOWN_QEMU_ARCH} REQUIRED)
