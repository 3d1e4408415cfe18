# Cross toolchain for aarch64 (arm64) Linux, tests under qemu-aarch64. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
