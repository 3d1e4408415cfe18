# riscv64: the vector-crypto backends through the suites under qemu-riscv64 at VLEN 128, 256, 512 and 1024,
# with the Zvk model installed (QEMU 7.2 has RVV 1.0 but no vector crypto). Included by cmake/TestMatrix.cmake.
#
# Budget: an emulated instruction costs about 5-8 us here (emul/README.md, riscv64), a SHA-256 block 48 of
# them and a SHA-512 block 60, so the suites run at SHAKEDOWN_TEST_SCALE 0.01 and only the zvknha/zvknhb
# parameters selected by _zvk_filter (the generic backend runs in the plain qemu-riscv64 variants).
# SHAKEDOWN_EMULATE_REQUIRE fails a run (exit 3) that emulated fewer than 100 of each instruction the
# backends use, and SHAKEDOWN_EXPECT_SELECTED that the vector backends were selected: a vector backend
# that silently did not run cannot pass.
if(NOT TARGET shakedown_emul OR NOT CMAKE_CROSSCOMPILING OR NOT SHAKEDOWN_QEMU)
  return()
endif()

set(_zvk_suites shakedown_vectors_tests shakedown_diff_tests)
# The full suites would take about 10 min per VLEN even at today's ~5 us per trap (the measurements:
# docs/history.md §1), so the emulated runs keep SHA-256 and SHA-512 (the other four
# algorithms share their block functions) and leave out the tests that hash every length 0..4096, the
# LongMsg/Monte/NIST-HMAC files (thousands of blocks each; ShortMsg and Wycheproof HMAC stay) and
# SignalDiff (under QEMU 7.2 almost all of a hash runs inside the SIGILL handler with signals deferred, so
# the probe signal never lands mid-hash; see emul/README.md). Every length class and split class is still
# covered by ShortMsg, RandomIncrementalSplits, GuardPages, Alignment0To127, BlockDiff and HandoffDiff.
set(_zvk_filter "*sha256__riscv64_zvknha*:*sha512__riscv64_zvknhb*:-*EveryLength0To4096*:*Consolidated*:*LongMsg*:*Monte*:*NistHmac*:*SignalDiff*")
set(_zvk_expect "sha256=riscv64/zvknha,sha512=riscv64/zvknhb,keccak=generic")
set(_zvk_require "vsha2ms=100,vsha2ch=100,vsha2cl=100,vrev8=100")

# zvk_add_vlen_variant(<name> <vlen> <emulate-spec> <assume> <expect> <require> <suites...>)
function(zvk_add_vlen_variant name vlen spec assume expect require)
  set(_cpu "rv64,v=true,vlen=${vlen},elen=64,vext_spec=v1.0")
  foreach(suite IN LISTS ARGN)
    if(TARGET ${suite})
      add_test(NAME emul.${name}.${suite}
               COMMAND ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${_cpu} $<TARGET_FILE:${suite}>
                       "--gtest_filter=${_zvk_filter}")
      set_tests_properties(emul.${name}.${suite} PROPERTIES
        ENVIRONMENT "SHAKEDOWN_EMULATE=${spec};SHAKEDOWN_TEST_ASSUME=${assume};SHAKEDOWN_EXPECT_SELECTED=${expect};SHAKEDOWN_EMULATE_REQUIRE=${require};SHAKEDOWN_TEST_SCALE=0.01;SHAKEDOWN_ENV_NAME=emul.${name}"
        LABELS "emul;emul.${name}" TIMEOUT 900)
    endif()
  endforeach()
  # The model's own tests at this VLEN (the regression proofs depend on it: LMUL = 1 SHA-512 dies at 128 only).
  add_test(NAME emul.${name}.shakedown_emul_zvk_tests
           COMMAND ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${_cpu} $<TARGET_FILE:shakedown_emul_zvk_tests>)
  set_tests_properties(emul.${name}.shakedown_emul_zvk_tests PROPERTIES LABELS "emul;emul.${name}" TIMEOUT 600)
endfunction()

# Tail-agnostic writes fill tails with ones in every run: a backend relying on tail elements breaks.
foreach(vlen 128 256 512 1024)
  zvk_add_vlen_variant(zvk-vlen${vlen} ${vlen} "zvk:zvknhb,tail-ones" "rv_zvknhb,rv_zvkb" "${_zvk_expect}"
                       "${_zvk_require}" ${_zvk_suites})
endforeach()

# Emulator conformance under QEMU 10 (docs/qemu10.md): the model's every instruction form against QEMU's own
# Zvknhb/Zvkb at each VLEN, once with QEMU's default tail policy (tails and masked-off elements kept) and once with
# agnostic ones filled with ones (rvv_ta_all_1s/rvv_ma_all_1s), the model in the matching mode.
shakedown_find_qemu10(riscv64 _zvk_qemu10)
if(_zvk_qemu10)
  foreach(vlen 128 256 512 1024)
    foreach(_policy "kept|0|" "ones|1|,rvv_ta_all_1s=true,rvv_ma_all_1s=true")
      string(REPLACE "|" ";" _policy "${_policy}")
      list(GET _policy 0 _name)
      list(GET _policy 1 _ones)
      list(GET _policy 2 _cpu_extra)
      set(_name qemu10-riscv64.vlen${vlen}-tail-${_name}.zvk_conformance)
      add_test(NAME ${_name}
               COMMAND ${_zvk_qemu10} -L ${SHAKEDOWN_CROSS_SYSROOT}
                       -cpu rv64,v=true,vlen=${vlen},elen=64,zvknhb=true,zvkb=true${_cpu_extra}
                       $<TARGET_FILE:shakedown_emul_zvk_conformance>)
      set_tests_properties(${_name} PROPERTIES ENVIRONMENT "SHAKEDOWN_ZVK_TAIL_ONES=${_ones}"
                           LABELS "emul;conformance" TIMEOUT 600)
    endforeach()
  endforeach()
endif()
