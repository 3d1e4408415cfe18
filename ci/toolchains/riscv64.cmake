# Cross toolchain for riscv64 Linux, tests under qemu-riscv64. See cross-common.cmake.
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(SHAKEDOWN_CROSS_TRIPLE riscv64-linux-gnu)
set(SHAKEDOWN_QEMU_ARCH riscv64)
set(SHAKEDOWN_DEB_ARCH riscv64)
# Debian 12 has no riscv64 OpenSSL or libclang-rt; Debian 13 has both, against its own glibc: ci/cross-deps
# assembles a trixie sysroot in the cache and clang-19 builds against it (the OpenSSL oracle and libFuzzer, as on
# aarch64 and s390x).
set(SHAKEDOWN_CROSS_OWN_SYSROOT ON)
# rv64gcv: RVV 1.0 at VLEN 128 (QEMU 7.2 has no vector crypto); rv64zk: scalar crypto (Zknh), no V.
set(SHAKEDOWN_QEMU_MODELS_DEFAULT "rv64gcv=rv64,v=true,vlen=128,elen=64,vext_spec=v1.0;rv64zk=rv64,zk=true")
# QEMU 10 executes Zvknha/Zvknhb/Zvkb and answers riscv_hwprobe (docs/qemu10.md): the vector backends at every VLEN,
# V with Zvknha but not Zvknhb (SHA-512 falls back), Zvknha without Zvkb (both fall back: vrev8 is Zvkb).
set(SHAKEDOWN_QEMU10_MODELS_DEFAULT
    "zvknhb-vlen128=rv64,v=true,vlen=128,elen=64,zvknhb=true,zvkb=true"
    "zvknhb-vlen256=rv64,v=true,vlen=256,elen=64,zvknhb=true,zvkb=true"
    "zvknhb-vlen512=rv64,v=true,vlen=512,elen=64,zvknhb=true,zvkb=true"
    "zvknhb-vlen1024=rv64,v=true,vlen=1024,elen=64,zvknhb=true,zvkb=true"
    "zvknha=rv64,v=true,vlen=128,elen=64,zvknha=true,zvkb=true"
    "zvknha-nozvkb=rv64,v=true,vlen=128,elen=64,zvknha=true")
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
