# s390x: the CPACF KIMD/KLMD model (docs/isa/cpacf.md §2) and its tests. Included by emul/CMakeLists.txt.
target_sources(shakedown_emul PRIVATE src/cpacf_model.cc src/trap_s390x.cc)
set_source_files_properties(src/cpacf_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The model against OpenSSL through hand-written KIMD/KLMD callers, the regression proofs (deliberately wrong
# callers), QEMU-native vs emulated SHA-512, and the s390x/cpacf backends through the public API.
add_executable(shakedown_emul_cpacf_tests
  tests/main.cc
  tests/guarded.cc
  tests/openssl_ref.cc
  tests/cpacf_support.cc
  tests/cpacf_model_test.cc
  tests/cpacf_regression_test.cc
  tests/cpacf_backend_test.cc
)
target_include_directories(shakedown_emul_cpacf_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_cpacf_tests PRIVATE shakedown_emul shakedown::testing GTest::gtest
                      OpenSSL::Crypto $<BUILD_INTERFACE:shakedown_warnings>)
if(NOT SHAKEDOWN_NO_S390X_CPACF)
  # The backends exist: their tests must find them (a missing backend is a failure, not a skip).
  target_compile_definitions(shakedown_emul_cpacf_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_CPACF_BACKENDS=1)
endif()
gtest_discover_tests(shakedown_emul_cpacf_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "emul." DISCOVERY_TIMEOUT 120)

# The emulated CPACF backends in the fuzz targets' random runs under qemu-s390x (fuzz/CMakeLists.txt reads these).
set_property(GLOBAL APPEND PROPERTY SHAKEDOWN_EMUL_FUZZ_VARIANTS emul-cpacf)
set_property(GLOBAL PROPERTY SHAKEDOWN_EMUL_FUZZ_ENV_emul-cpacf
  "SHAKEDOWN_EMULATE=cpacf:sha256,sha3" "SHAKEDOWN_TEST_ASSUME=s390_sha256,s390_sha3,s390_sha512"
  "SHAKEDOWN_EMULATE_REQUIRE=kimd_sha256=10,kimd_sha3=10" "SHAKEDOWN_ENV_NAME=emul.cpacf")

# Emulator conformance (docs/qemu10.md): the model's KIMD/KLMD-SHA-512 against QEMU's own, execution by execution.
# Registered by emul/tests_s390x.cmake under QEMU 7.2 and QEMU 10 (both implement function code 3).
add_executable(shakedown_emul_cpacf_conformance
  tests/main.cc
  tests/openssl_ref.cc
  tests/sigill_probe.cc
  tests/cpacf_conformance_test.cc
)
target_include_directories(shakedown_emul_cpacf_conformance PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_cpacf_conformance PRIVATE shakedown_emul GTest::gtest OpenSSL::Crypto
                      $<BUILD_INTERFACE:shakedown_warnings>)
