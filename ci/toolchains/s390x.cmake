# Cross toolchain for s390x Linux, tests under qemu-s390x. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(SHAKEDOWN_CROSS_TRIPLE s390x-linux-gnu)
set(SHAKEDOWN_QEMU_ARCH s390x)
set(SHAKEDOWN_DEB_ARCH s390x)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
