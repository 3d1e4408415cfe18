# Cross toolchain for riscv64 Linux, tests under qemu-riscv64. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR riscv64)
# Debian 12 has no riscv64 OpenSSL or libclang-rt; Debian 13 has both, against its own glibc: ci/cross-deps
# assembles a trixie sysroot in the cache and clang-19 builds against it (the OpenSSL oracle and libFuzzer, as on
# aarch64 and s390x).
set(SHAKEDOWN_CROSS_OWN_SYSROOT ON)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
