# s390x: emulated-CPACF variants of the suites under qemu-s390x (included by cmake/TestMatrix.cmake once every
# test target exists). QEMU 7.2 runs KIMD/KLMD-SHA-512 itself and traps SHA-256/SHA-3/SHAKE; its query cannot be
# trapped, so the functions are enabled with SHAKEDOWN_TEST_ASSUME and s390x/cpacf then runs its real inline asm
# against the model. SHAKEDOWN_EMULATE_REQUIRE gives per-kind minimums so a backend that silently did not run
# fails the entry (exit 3). SHAKEDOWN_TEST_SCALE as for every qemu run; the CC3 variant lower (a trap per block).
if(NOT TARGET shakedown_emul OR NOT CMAKE_CROSSCOMPILING OR NOT SHAKEDOWN_QEMU)
  return()
endif()

set(_cpacf_qemu ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT})
set(_cpacf_suites shakedown_vectors_tests shakedown_diff_tests)
# KIMD absorbs (Hasher::update); KLMD is the one-shot hook every hash() call reaches, for SHA3-* and SHAKE.
set(_cpacf_require_keccak "kimd_sha3=100,klmd_sha3=100,klmd_shake=100")

# cpacf_add_suite_variant(<name> <cpu> <spec> <assume> <require> [SUITES suite...] [ENV k=v...])
function(cpacf_add_suite_variant name cpu spec assume require)
  cmake_parse_arguments(E "" "" "SUITES;ENV" ${ARGN})
  if(NOT E_SUITES)
    set(E_SUITES ${_cpacf_suites})
  endif()
  foreach(suite IN LISTS E_SUITES)
    if(TARGET ${suite})
      # Only the s390x/cpacf instances: generic and QEMU-native ones already run in qemu-s390x.<model>.<suite>.
      add_test(NAME emul.${name}.${suite}
               COMMAND ${_cpacf_qemu} -cpu ${cpu} $<TARGET_FILE:${suite}> --gtest_filter=*s390x_cpacf*)
      set_tests_properties(emul.${name}.${suite} PROPERTIES
        ENVIRONMENT "SHAKEDOWN_EMULATE=${spec};SHAKEDOWN_TEST_ASSUME=${assume};SHAKEDOWN_EMULATE_REQUIRE=${require};SHAKEDOWN_TEST_SCALE=${SHAKEDOWN_QEMU_TEST_SCALE};${E_ENV};SHAKEDOWN_ENV_NAME=emul.${name}"
        LABELS emul TIMEOUT 1500)
    endif()
  endforeach()
endfunction()

# -cpu max: SHA-256 and SHA-3/SHAKE emulated, SHA-512 QEMU-native (the emulator would refuse nothing: QEMU
# never traps it). The zeroed-parameter-block path of the one-shot digest (no MSA12).
cpacf_add_suite_variant(cpacf max "cpacf:sha256,sha3" "s390_sha256,s390_sha3,s390_sha512"
  "kimd_sha256=100,${_cpacf_require_keccak}")
# CC3 after every block: every KIMD/KLMD retry loop runs; with MSA12 assumed, the NIP/DUFOP path too. Both
# suites: a trap per block (1.7 M in the differential suite) costs about 25 s (docs/history.md §2).
cpacf_add_suite_variant(cpacf-interrupt1-msa12 max "cpacf:sha256,sha3,interrupt=1"
  "s390_sha256,s390_sha3,s390_sha512,s390_msa12" "kimd_sha256=100,${_cpacf_require_keccak}")
# QEMU's SHA-512 disabled: the emulated KIMD-SHA-512 runs instead of QEMU's (the same suites ran it QEMU-native in
# qemu-s390x.max). Only SHA-512 is enabled, so the filter keeps just the SHA-384/512 family's instances.
cpacf_add_suite_variant(cpacf-nosha512 "max,kimd-sha-512=off,klmd-sha-512=off" "cpacf:sha512"
  "s390_sha512" "kimd_sha512=100")

# The emulator's own tests under both CPU models: SHA-512 QEMU-native vs the model in the first, emulated in the
# second (CpacfSha512.QemuNativeAndModelAgree is told which one must happen).
foreach(_m IN ITEMS "max|max|native" "nosha512|max,kimd-sha-512=off,klmd-sha-512=off|emulated")
  string(REPLACE "|" ";" _m "${_m}")
  list(GET _m 0 _alias)
  list(GET _m 1 _cpu)
  list(GET _m 2 _sha512)
  add_test(NAME emul.qemu-s390x.${_alias}.shakedown_emul_cpacf_tests
           COMMAND ${_cpacf_qemu} -cpu ${_cpu} $<TARGET_FILE:shakedown_emul_cpacf_tests>)
  set_tests_properties(emul.qemu-s390x.${_alias}.shakedown_emul_cpacf_tests PROPERTIES
    ENVIRONMENT "SHAKEDOWN_CPACF_SHA512=${_sha512}" LABELS emul TIMEOUT 600)
endforeach()

# Emulator conformance (docs/qemu10.md): the model's SHA-512 against each QEMU that executes it natively.
shakedown_find_qemu10(s390x _cpacf_qemu10)
foreach(_runner IN ITEMS "qemu-s390x|${SHAKEDOWN_QEMU}" "qemu10-s390x|${_cpacf_qemu10}")
  string(REPLACE "|" ";" _runner "${_runner}")
  list(GET _runner 0 _prefix)
  list(GET _runner 1 _qemu)
  if(_qemu)
    add_test(NAME ${_prefix}.max.cpacf_conformance
             COMMAND ${_qemu} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu max $<TARGET_FILE:shakedown_emul_cpacf_conformance>)
    set_tests_properties(${_prefix}.max.cpacf_conformance PROPERTIES LABELS "emul;conformance" TIMEOUT 600)
  endif()
endforeach()
