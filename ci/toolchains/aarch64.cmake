# Cross toolchain for aarch64 (arm64) Linux, tests under qemu-aarch64. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SHAKEDOWN_CROSS_TRIPLE aarch64-linux-gnu)
set(SHAKEDOWN_QEMU_ARCH aarch64)
set(SHAKEDOWN_DEB_ARCH arm64)
# max: SHA2 + SHA512 + SHA3 (every arm64 backend); cortex-a72: SHA2 only (SHA-512 and Keccak fall back).
set(SHAKEDOWN_QEMU_MODELS_DEFAULT "max=max;cortex-a72=cortex-a72")
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
