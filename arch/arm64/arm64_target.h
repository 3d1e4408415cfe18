// Function-level ISA attributes for the arm64 backends (never a global -march: see CMakeLists.txt).
//
// Only the attributed functions may use the extension, so nothing else in the file (and no inline
// function from a header that the linker might share with other files) can contain an instruction
// that a CPU without it, such as Cortex-A72 for SHA-512/SHA-3, would trap on.
#pragma once

#if defined(__clang__)
// clang names the Arm ARM features directly; "sha3" covers FEAT_SHA3 and FEAT_SHA512.
#define SHAKEDOWN_ARM64_TARGET_SHA2 __attribute__((target("sha2")))
#define SHAKEDOWN_ARM64_TARGET_SHA3 __attribute__((target("sha3")))
#else
// gcc-12 only knows "+crypto" for the SHA-256 intrinsics, and declares the SHA-512 and SHA-3
// intrinsics under "arch=armv8.2-a+sha3" (docs/isa/arm-crypto.md §5.2).
#define SHAKEDOWN_ARM64_TARGET_SHA2 __attribute__((target("+crypto")))
#define SHAKEDOWN_ARM64_TARGET_SHA3 __attribute__((target("arch=armv8.2-a+sha3")))
#endif
