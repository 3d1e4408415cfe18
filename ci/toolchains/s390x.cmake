# Cross toolchain for s390x Linux, tests under qemu-s390x. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR s390x)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
