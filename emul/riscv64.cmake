# riscv64: the vector-crypto model (Zvknha/Zvknhb + Zvkb, docs/isa/riscv-crypto.md §3) and its tests.
# Included by emul/CMakeLists.txt. Nothing here may add V to the compile flags: the adapter and the model run
# inside the SIGILL handler on top of the interrupted code's live vector registers (both files #error on V).
target_sources(shakedown_emul PRIVATE src/trap_riscv64.cc src/zvk_model.cc)
set_source_files_properties(src/zvk_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The model's own tests: pure model semantics against the independent reference (no signals), then the real
# instructions through the handler (asm callers, reserved encodings as death tests, the regression proofs).
# Run once per VLEN (self-test= of ci/matrix/riscv64.txt); the references are sha_reference and FIPS digests, no
# OpenSSL.
add_executable(shakedown_emul_zvk_tests
  tests/main.cc
  tests/zvk_model_test.cc
  tests/zvk_trap_test.cc
)
target_include_directories(shakedown_emul_zvk_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                           ${PROJECT_SOURCE_DIR}/arch/riscv64 ${PROJECT_SOURCE_DIR}/lib/src)
target_link_libraries(shakedown_emul_zvk_tests PRIVATE shakedown_emul shakedown::testing GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
shakedown_gtest_precompiled(shakedown_emul_zvk_tests)

# Emulator conformance (docs/qemu10.md): the model against QEMU 10's own Zvknhb/Zvkb, instruction by instruction, once
# per VLEN and tail policy (the qemu10-riscv64.*.zvk_conformance rows of ci/matrix/riscv64.txt); under QEMU 7.2 every
# case would be illegal.
add_executable(shakedown_emul_zvk_conformance tests/main.cc tests/sigill_probe.cc tests/zvk_conformance_test.cc)
target_include_directories(shakedown_emul_zvk_conformance PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_zvk_conformance PRIVATE shakedown_emul GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
shakedown_gtest_precompiled(shakedown_emul_zvk_conformance)
# The emulated environments (suites and fuzz drivers under the model, per VLEN): ci/matrix/riscv64.txt.
