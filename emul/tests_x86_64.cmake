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
