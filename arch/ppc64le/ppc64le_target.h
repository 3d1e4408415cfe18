// Function-level ISA attributes for the ppc64le backends (never a global -mcpu: see CMakeLists.txt).
//
// Only the attributed functions may use vector crypto, so nothing else in the file (and no inline function from
// a header that the linker might share with other files) can contain an instruction that a CPU without it would
// trap on. Debian's ppc64el baseline is POWER8 already; the attribute states the need where it arises.
#pragma once

#if defined(__clang__)
#define SHAKEDOWN_PPC64LE_TARGET_VCRYPTO __attribute__((target("crypto,power8-vector")))
#else
#define SHAKEDOWN_PPC64LE_TARGET_VCRYPTO __attribute__((target("cpu=power8")))
#endif
