// Per-function ISA for the x86-64 backends: a backend file compiles for the baseline, and only the code between
// SHAKEDOWN_X86_TARGET_BEGIN("<isa list>") and SHAKEDOWN_X86_TARGET_END may use the extensions it names.
//
// The availability predicate and the row, which run on every CPU, stay outside the region, in the same file as
// the code they guard. Headers are included before BEGIN, so that every inline function with external linkage
// (the standard library, lib/src/internal/*.h) is compiled for the baseline; only a header whose functions all
// have internal linkage (sha2_x86.h, sha512_x86.h) may be included inside, to be compiled for the region's ISA.
// (Per-file -m flags had the same effect on the backend code, but also compiled those shared inline functions
// with the extension: the linker may keep any file's copy, and a CPU without it would then trap elsewhere.)
#pragma once

#define SHAKEDOWN_X86_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define SHAKEDOWN_X86_TARGET_BEGIN(isa) \
  SHAKEDOWN_X86_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define SHAKEDOWN_X86_TARGET_END SHAKEDOWN_X86_PRAGMA(clang attribute pop)
#else
#define SHAKEDOWN_X86_TARGET_BEGIN(isa) SHAKEDOWN_X86_PRAGMA(GCC push_options) SHAKEDOWN_X86_PRAGMA(GCC target(isa))
#define SHAKEDOWN_X86_TARGET_END SHAKEDOWN_X86_PRAGMA(GCC pop_options)
#endif
