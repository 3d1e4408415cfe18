# Cross toolchain for ppc64le (64-bit little-endian POWER, ELFv2) Linux, tests under qemu-ppc64le. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
