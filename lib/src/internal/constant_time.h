// Constant-time validation hooks: mark memory secret, declassify a value on purpose (no-ops in normal builds).
//
// A secret is marked as uninitialised memory for the tool that checks the build, and both tools report
// every conditional branch and every memory address computed from it (the two ways code leaks a secret
// through its timing), wherever the secret has flowed by then:
//   - MemorySanitizer builds (the msan preset): __msan_poison / __msan_unpoison;
//   - SHAKEDOWN_CT_VALGRIND builds (the valgrind preset): memcheck's VALGRIND_MAKE_MEM_UNDEFINED /
//     VALGRIND_MAKE_MEM_DEFINED client requests, which do nothing when the program is not run under Valgrind.
// Declassifying says, greppably, "this value is public by the operation's contract and may leak": the
// caller branches on Hmac::verify's verdict, so it is declassified where it is computed. Nothing else in
// the library declassifies: a digest or MAC is often a secret itself (HMAC hashes a long key into its K0;
// verify compares a MAC it computed), so outputs stay marked and the caller declassifies what it publishes.
// Outside those builds both macros expand to nothing that evaluates their arguments or takes an address,
// so the optimiser sees the same code as without them.
#pragma once

#include "internal/msan.h"

#if defined(SHAKEDOWN_CT_VALGRIND) && defined(SHAKEDOWN_INTERNAL_MSAN)
#error "SHAKEDOWN_CT_VALGRIND is for native builds: Valgrind cannot run a MemorySanitizer binary"
#endif

#if defined(SHAKEDOWN_CT_VALGRIND)
#include <valgrind/memcheck.h>
#define SHAKEDOWN_CT_SECRET(ptr, len) ((void)VALGRIND_MAKE_MEM_UNDEFINED((ptr), (len)))
#define SHAKEDOWN_CT_DECLASSIFY(ptr, len) ((void)VALGRIND_MAKE_MEM_DEFINED((ptr), (len)))
#elif defined(SHAKEDOWN_INTERNAL_MSAN)
#define SHAKEDOWN_CT_SECRET(ptr, len) __msan_poison((ptr), (len))
#define SHAKEDOWN_CT_DECLASSIFY(ptr, len) __msan_unpoison((ptr), (len))
#else
#define SHAKEDOWN_CT_SECRET(ptr, len) ((void)0)
#define SHAKEDOWN_CT_DECLASSIFY(ptr, len) ((void)0)
#endif
