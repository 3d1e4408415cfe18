# x86-64: the PadLock PHE/PHE2 model (specs/instructions.md §1) and its tests. Included by emul/CMakeLists.txt.
target_sources(shakedown_emul PRIVATE src/phe_model.cc src/trap_x86_64.cc)
set_source_files_properties(src/phe_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The model's own tests: hand-written asm callers against OpenSSL, the regression proofs, the framework
# (chaining, threads, environment syntax), the PHE backends through the public API, and the overhead.
add_executable(shakedown_emul_tests
  tests/main.cc
  tests/phe_model_test.cc
  tests/phe_regression_test.cc
  tests/phe_framework_test.cc
  tests/phe_backend_test.cc
  tests/phe_overhead_test.cc
)
target_include_directories(shakedown_emul_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_link_libraries(shakedown_emul_tests PRIVATE shakedown_emul shakedown_test_support GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>)
if(EXISTS ${PROJECT_SOURCE_DIR}/arch/x86_64/sha256_phe.cc AND EXISTS ${PROJECT_SOURCE_DIR}/arch/x86_64/sha512_phe2.cc)
  # The backends exist: their tests must find them (a missing backend is a failure, not a skip).
  target_compile_definitions(shakedown_emul_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_PHE_BACKENDS=1)
endif()
gtest_discover_tests(shakedown_emul_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "emul." DISCOVERY_TIMEOUT 60)
# The emulated environments (suites and fuzz drivers under the model): ci/matrix/x86_64.txt.
