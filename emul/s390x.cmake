# s390x: the CPACF KIMD/KLMD model (docs/isa/cpacf.md §2) and its tests. Included by emul/CMakeLists.txt.
target_sources(shakedown_emul PRIVATE src/cpacf_model.cc src/trap_s390x.cc)
set_source_files_properties(src/cpacf_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The model against OpenSSL through hand-written KIMD/KLMD callers, the regression proofs (deliberately wrong
# callers), QEMU-native vs emulated SHA-512, and the s390x/cpacf backends through the public API.
add_executable(shakedown_emul_cpacf_tests
  tests/main.cc
  tests/cpacf_support.cc
  tests/cpacf_model_test.cc
  tests/cpacf_regression_test.cc
  tests/cpacf_backend_test.cc
)
target_include_directories(shakedown_emul_cpacf_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_cpacf_tests PRIVATE shakedown_emul shakedown_test_support GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
shakedown_gtest_precompiled(shakedown_emul_cpacf_tests)
shakedown_backends_compiled(_cpacf_compiled sha256/s390x/cpacf sha512/s390x/cpacf keccak/s390x/cpacf)
if(_cpacf_compiled)
  # The backends are compiled: their tests must find them (a missing backend is a failure, not a skip).
  target_compile_definitions(shakedown_emul_cpacf_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_CPACF_BACKENDS=1)
endif()
gtest_discover_tests(shakedown_emul_cpacf_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "emul." DISCOVERY_TIMEOUT 120)

# Emulator conformance (docs/qemu10.md): the model's KIMD/KLMD-SHA-512 against QEMU's own, execution by execution,
# under QEMU 7.2 and QEMU 10 (both implement function code 3): the *.cpacf_conformance rows of ci/matrix/s390x.txt.
add_executable(shakedown_emul_cpacf_conformance
  tests/main.cc
  tests/sigill_probe.cc
  tests/cpacf_conformance_test.cc
)
target_include_directories(shakedown_emul_cpacf_conformance PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_cpacf_conformance PRIVATE shakedown_emul shakedown_test_support GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
shakedown_gtest_precompiled(shakedown_emul_cpacf_conformance)
# The emulated environments (suites and fuzz drivers under the model, per CPU model): ci/matrix/s390x.txt.
