# Cross toolchain for riscv64 Linux, tests under qemu-riscv64. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(SHAKEDOWN_CROSS_TRIPLE riscv64-linux-gnu)
set(SHAKEDOWN_QEMU_ARCH riscv64)
set(SHAKEDOWN_DEB_ARCH riscv64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
