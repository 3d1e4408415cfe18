# x86-64: emulated-PadLock variants of the suites (included by cmake/TestMatrix.cmake once every test target exists).
# The vector (incl. consolidated checksums) and differential suites run every available backend; with the
# Zhaoxin PHE/PHE2 features assumed and the emulator installed, x86_64/phe and x86_64/phe2 are available and
# run through the real inline asm. SHAKEDOWN_EMULATE_REQUIRE fails a run (exit 3) that emulated fewer than 100
# XSHA256 and 100 XSHA512 instructions, so a backend that silently did not run cannot pass (the start-up
# self-test alone runs one instruction, hence a count and not just "> 0").
if(NOT TARGET shakedown_emul)
  return()
endif()

set(_emul_env "SHAKEDOWN_TEST_ASSUME=zhaoxin-phe" "SHAKEDOWN_EMULATE_REQUIRE=xsha256=100,xsha512=100")
# Only suites that run every backend over enough data to meet the requirement (not every SHAKEDOWN_SUITES entry).
set(_emul_suites shakedown_vectors_tests shakedown_diff_tests shakedown_x86_keccak_phe_tests)

# emul_add_suite_variant(<name> <spec> [EMULATOR cmd...] [ENV k=v...])
function(emul_add_suite_variant name spec)
  cmake_parse_arguments(E "" "" "EMULATOR;ENV" ${ARGN})
  foreach(suite IN LISTS _emul_suites)
    if(TARGET ${suite})
      add_test(NAME emul.${name}.${suite} COMMAND ${E_EMULATOR} $<TARGET_FILE:${suite}>)
      set_tests_properties(emul.${name}.${suite} PROPERTIES
        ENVIRONMENT "SHAKEDOWN_EMULATE=${spec};${_emul_env};${E_ENV};SHAKEDOWN_ENV_NAME=emul.${name}"
        LABELS emul TIMEOUT 1500)
    endif()
  endforeach()
endfunction()

emul_add_suite_variant(phe-zhaoxin-strict "phe:zhaoxin,strict")
emul_add_suite_variant(phe-zhaoxin-strict-interrupt1 "phe:zhaoxin,strict,interrupt=1" ENV "SHAKEDOWN_TEST_SCALE=0.25")

# The same under qemu-x86_64 (QEMU has no PadLock either, and enters handlers with a misaligned stack), and
# the emulator's own tests there. Never for sanitizer builds (docs/platforms.md §6.1: ASan under qemu-user explodes).
find_program(QEMU_X86_64 qemu-x86_64)
string(FIND "${CMAKE_CXX_FLAGS}" "-fsanitize=" _emul_sanitized)
if(QEMU_X86_64 AND _emul_sanitized EQUAL -1 AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME emul.qemu-x86_64.shakedown_emul_tests COMMAND ${QEMU_X86_64} -cpu max $<TARGET_FILE:shakedown_emul_tests>)
  set_tests_properties(emul.qemu-x86_64.shakedown_emul_tests PROPERTIES LABELS emul TIMEOUT 600)
  emul_add_suite_variant(qemu-x86_64.phe-zhaoxin-strict "phe:zhaoxin,strict" EMULATOR ${QEMU_X86_64} -cpu max
    ENV "SHAKEDOWN_TEST_SCALE=0.05")
endif()

# ---- Intel SHA512 extension (x86_64/sha512ni on the sha512ni model; docs/intel-sha512.md) ----
# SHAKEDOWN_TEST_ASSUME=sha512 adds only the CPUID bit: AVX and OS-enabled YMM state stay what the CPU (or QEMU's
# CPU model) really has, so the same spec gives both sides of the selection lattice. SHAKEDOWN_EXPECT_SELECTED
# asserts the SHA-512 family only (SHA-256/Keccak depend on the host and the QEMU version), and
# SHAKEDOWN_EMULATE_REQUIRE fails a run in which the backend did not run its instructions (exit 3); its minimums
# are far above the 40/16/16 instructions of the one-block self-test at selection, which alone would meet a low one.
#
# Budget: every instruction traps (72 per block: 40 VSHA512RNDS2, 16 each MSG1/MSG2), measured ~16 us per trap
# natively on the 2-core CI host and ~12 us under qemu-x86_64 7.2. So the runs keep only the x86_64/sha512ni
# instances (every other backend already runs in host-default and qemu-x86_64.*) and leave out the tests that hash
# tens of thousands of blocks per algorithm: every length 0..4096 and the consolidated checksums, the CAVP
# LongMsg/Monte Carlo files and the NIST HMAC file (the same lengths, splits and keys stay covered by ShortMsg,
# Wycheproof HMAC, RandomIncrementalSplits, Alignment0To127, GuardPages, BlockDiff, HandoffDiff, the ABI check
# and the HMAC key lengths 0..292). SignalDiff is left out too: its probe signal arrives every 50 us and its
# handler hashes four blocks (288 emulated instructions, milliseconds), so a new signal is always pending when the
# handler returns and the interrupted hash starves (measured: the entry hit its 25-minute timeout there).
# Measured with the host shared (load 5-9 on 2 cores): native vectors 22 s, diff 90 s at scale 0.25, direct block
# tests 3 s; under qemu-x86_64 at scale 0.05 (as every qemu-x86_64 run) vectors 10 s, diff 95 s.
set(_sha512ni_filter
    "*x86_64_sha512ni*:-*EveryLength0To4096*:*Consolidated*:*LongMsg*:*Monte*:*NistHmac*:*SignalDiff*")
set(_sha512ni_env "SHAKEDOWN_EMULATE=sha512ni" "SHAKEDOWN_TEST_ASSUME=sha512"
                  "SHAKEDOWN_EMULATE_REQUIRE=vsha512rnds2=1000,vsha512msg1=400,vsha512msg2=400"
                  "SHAKEDOWN_EXPECT_SELECTED=sha512=x86_64/sha512ni")
set(_sha512ni_suites shakedown_vectors_tests shakedown_diff_tests)

# sha512ni_add_variant(<name> <scale> [EMULATOR cmd...] [ENV k=v...] [SUITES suite...] [FILTER f])
function(sha512ni_add_variant name scale)
  cmake_parse_arguments(E "" "FILTER" "EMULATOR;ENV;SUITES" ${ARGN})
  if(NOT E_SUITES)
    set(E_SUITES ${_sha512ni_suites})
  endif()
  if(NOT E_FILTER)
    set(E_FILTER "${_sha512ni_filter}")
  endif()
  if(NOT E_ENV)
    set(E_ENV ${_sha512ni_env})
  endif()
  foreach(suite IN LISTS E_SUITES)
    if(TARGET ${suite})
      add_test(NAME emul.${name}.${suite} COMMAND ${E_EMULATOR} $<TARGET_FILE:${suite}> "--gtest_filter=${E_FILTER}")
      set_tests_properties(emul.${name}.${suite} PROPERTIES
        ENVIRONMENT "${E_ENV};SHAKEDOWN_TEST_SCALE=${scale};SHAKEDOWN_ENV_NAME=emul.${name}"
        LABELS "emul;emul.${name}" TIMEOUT 1500)
    endif()
  endforeach()
endfunction()

if(TARGET shakedown_emul_tests AND NOT SHAKEDOWN_NO_X86_64_SHA512NI)
  sha512ni_add_variant(sha512ni 0.25)
  if(QEMU_X86_64 AND _emul_sanitized EQUAL -1 AND NOT CMAKE_CROSSCOMPILING)
    sha512ni_add_variant(qemu-x86_64.sha512ni 0.05 EMULATOR ${QEMU_X86_64} -cpu max)
    # The other side of the lattice: "-cpu max,-xsave" reports AVX and AVX2 but OSXSAVE = 0, so the OS enabled no
    # YMM state (platform-facts measured). With the SHA512 bit assumed and the model installed the backend must
    # still be unavailable: SHA-512 stays generic (asserted before any test runs), and the model refuses the
    # instruction there (Sha512niTrapDeath.RefusedWithoutYmmState) while its pure tests run.
    sha512ni_add_variant(qemu-x86_64.sha512ni-noymm 0.05 EMULATOR ${QEMU_X86_64} -cpu max,-xsave
      ENV "SHAKEDOWN_EMULATE=sha512ni" "SHAKEDOWN_TEST_ASSUME=sha512" "SHAKEDOWN_EXPECT_SELECTED=sha512=generic"
      SUITES shakedown_vectors_tests FILTER "*sha512__generic*:-*EveryLength0To4096*:*Consolidated*:*LongMsg*:*Monte*")
    add_test(NAME emul.qemu-x86_64.sha512ni-noymm.shakedown_emul_tests
             COMMAND ${QEMU_X86_64} -cpu max,-xsave $<TARGET_FILE:shakedown_emul_tests>
                     "--gtest_filter=Sha512niModel.*:Sha512niDecode.*:Sha512niTrapDeath.RefusedWithoutYmmState")
    set_tests_properties(emul.qemu-x86_64.sha512ni-noymm.shakedown_emul_tests PROPERTIES LABELS emul TIMEOUT 600)
  endif()
endif()
