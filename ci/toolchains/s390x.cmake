# Cross toolchain for s390x Linux, tests under qemu-s390x. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(SHAKEDOWN_CROSS_TRIPLE s390x-linux-gnu)
set(SHAKEDOWN_QEMU_ARCH s390x)
set(SHAKEDOWN_DEB_ARCH s390x)
# max: CPACF KIMD/KLMD with SHA-512 only (QEMU 7.2); nosha512: the same without it, so that a CPACF
# backend's fallback is exercised too (docs/platforms.md §2.3).
set(SHAKEDOWN_QEMU_MODELS_DEFAULT "max=max;nosha512=max,kimd-sha-512=off,klmd-sha-512=off")
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
