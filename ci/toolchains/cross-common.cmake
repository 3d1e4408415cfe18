# Shared part of the cross toolchain files: compilers, the target's sysroot, the foreign-package cache
# of ci/cross-deps, and the qemu-user emulator every test runs under. Included by <arch>.cmake, which
# sets CMAKE_SYSTEM_PROCESSOR first (ci/arches.txt gives the rest of the arch's names), and
# SHAKEDOWN_CROSS_OWN_SYSROOT when the arch's sysroot is the one ci/cross-deps assembles in the cache (riscv64:
# Debian 13) instead of the gcc cross sysroot /usr/<triple>.
set(CMAKE_SYSTEM_NAME Linux)
# The arch's names (Debian's, QEMU's, the triple's) from the one table, ci/arches.txt.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/Arches.cmake)
shakedown_arch_of(${CMAKE_SYSTEM_PROCESSOR})
if(NOT SHAKEDOWN_MATRIX_ARCH)
  message(FATAL_ERROR "shakedown: processor '${CMAKE_SYSTEM_PROCESSOR}' is not in ci/arches.txt")
endif()
set(SHAKEDOWN_QEMU_ARCH ${SHAKEDOWN_MATRIX_ARCH})
set(SHAKEDOWN_CROSS_TRIPLE ${SHAKEDOWN_ARCH_TRIPLE})
set(CMAKE_LIBRARY_ARCHITECTURE ${SHAKEDOWN_CROSS_TRIPLE})

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
# This arch's folder in the cache (ci/cross-deps cachedir_of names the same).
set(_arch_cache ${SHAKEDOWN_CROSS_CACHE}/${SHAKEDOWN_DEB_ARCH})
if(SHAKEDOWN_CROSS_OWN_SYSROOT)
  set(_arch_cache ${SHAKEDOWN_CROSS_CACHE}/${SHAKEDOWN_DEB_ARCH}-trixie)
endif()
set(_deb_root ${_arch_cache}/root)
set(_gtest_root ${_arch_cache}/gtest)

# Compiler: gcc-12 (the Debian cross packages) or clang-19, which finds the same gcc installation. An arch
# with its own sysroot needs clang: gcc-12's cross toolchain is tied to /usr/<triple>.
if(NOT SHAKEDOWN_CROSS_COMPILER)
  set(SHAKEDOWN_CROSS_COMPILER "$ENV{SHAKEDOWN_CROSS_COMPILER}")
endif()
if(NOT SHAKEDOWN_CROSS_COMPILER)
  set(SHAKEDOWN_CROSS_COMPILER gcc)
  if(SHAKEDOWN_CROSS_OWN_SYSROOT)
    set(SHAKEDOWN_CROSS_COMPILER clang)
  endif()
endif()
set(SHAKEDOWN_CROSS_COMPILER "${SHAKEDOWN_CROSS_COMPILER}" CACHE STRING "cross compiler family: gcc or clang")
if(SHAKEDOWN_CROSS_OWN_SYSROOT)
  if(NOT SHAKEDOWN_CROSS_COMPILER STREQUAL "clang")
    message(FATAL_ERROR "shakedown: ${SHAKEDOWN_CROSS_TRIPLE} builds against the Debian 13 sysroot in ${_deb_root}, "
                        "which only clang can use (gcc-12's cross toolchain links the Debian 12 glibc)")
  endif()
  if(NOT EXISTS ${_deb_root}/.complete)
    message(FATAL_ERROR "shakedown: no ${SHAKEDOWN_CROSS_TRIPLE} sysroot in ${_deb_root}: run ci/cross-deps ${SHAKEDOWN_QEMU_ARCH}")
  endif()
  set(SHAKEDOWN_CROSS_SYSROOT ${_deb_root})
  set(CMAKE_SYSROOT ${_deb_root})
else()
  set(SHAKEDOWN_CROSS_SYSROOT /usr/${SHAKEDOWN_CROSS_TRIPLE})  # from the g++-<triple> packages
endif()
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
  set(_resource_dir "${_arch_cache}/clang-resource")
  if(EXISTS ${_resource_dir}/lib/linux)
    string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -resource-dir=${_resource_dir}")
    string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " -resource-dir=${_resource_dir}")
  endif()
else()
  set(CMAKE_C_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-gcc-12)
  set(CMAKE_CXX_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-g++-12)
  set(CMAKE_ASM_COMPILER ${SHAKEDOWN_CROSS_TRIPLE}-gcc-12)
endif()

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
# foreign library path at run time. With an own sysroot qemu -L serves every library from it, and trixie's
# libcrypto.a would also need zlib and zstd, which FindOpenSSL does not add: link libcrypto.so there.
if(NOT SHAKEDOWN_CROSS_OWN_SYSROOT)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
# Debian keeps OpenSSL's arch-specific headers (opensslconf.h, configuration.h) in the multiarch folder,
# which the cross compiler does not search by itself; that folder holds nothing else.
if(EXISTS ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
  set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES ${_deb_root}/usr/include/${SHAKEDOWN_CROSS_TRIPLE})
endif()

# Every test runs under qemu-user (binfmt_misc is not mounted here), with the CPU models of
# ci/matrix/<arch>.txt: cmake/Matrix.cmake sets CMAKE_CROSSCOMPILING_EMULATOR from the first one.
find_program(SHAKEDOWN_QEMU qemu-${SHAKEDOWN_QEMU_ARCH} REQUIRED)
# The -L root, for scripts that run this build's binaries themselves (the CI driver's time-boxed fuzzing).
set(SHAKEDOWN_CROSS_QEMU_ROOT "${SHAKEDOWN_CROSS_SYSROOT}" CACHE INTERNAL "qemu-user -L root of this cross build")
