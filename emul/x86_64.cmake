# x86-64: the PadLock PHE/PHE2 model (docs/isa/padlock.md §1), the Intel SHA512-extension model
# (docs/intel-sha512.md) and their tests. Included by emul/CMakeLists.txt.
target_sources(shakedown_emul PRIVATE src/phe_model.cc src/sha512ni_model.cc src/xsave_frame.cc src/trap_x86_64.cc)
set_source_files_properties(src/phe_model.cc src/sha512ni_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The models' own tests: hand-written asm callers against OpenSSL and (SHA512) hand-derived FIPS answers, the
# regression proofs, the framework (chaining, threads, environment syntax), the emulated backends through the
# public API, and the overhead.
add_executable(shakedown_emul_tests
  tests/main.cc
  tests/guarded.cc
  tests/openssl_ref.cc
  tests/model_test.cc
  tests/regression_test.cc
  tests/framework_test.cc
  tests/backend_test.cc
  tests/overhead_test.cc
  tests/sha512ni_model_test.cc
  tests/sha512ni_trap_test.cc
)
target_include_directories(shakedown_emul_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                           ${PROJECT_SOURCE_DIR}/arch/x86_64 ${PROJECT_SOURCE_DIR}/lib/src)
target_link_libraries(shakedown_emul_tests PRIVATE shakedown_emul shakedown::testing GTest::gtest
                      OpenSSL::Crypto $<BUILD_INTERFACE:shakedown_warnings>)
if(EXISTS ${PROJECT_SOURCE_DIR}/arch/x86_64/sha256_phe.cc AND EXISTS ${PROJECT_SOURCE_DIR}/arch/x86_64/sha512_phe2.cc)
  # The backends exist: their tests must find them (a missing backend is a failure, not a skip).
  target_compile_definitions(shakedown_emul_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_PHE_BACKENDS=1)
endif()
if(NOT SHAKEDOWN_NO_X86_64_SHA512NI)
  target_compile_definitions(shakedown_emul_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_SHA512NI_BACKEND=1)
endif()
# The encoding macros of arch/x86_64/sha512ni_encoding.h against an assembler that knows the mnemonics (clang >= 18,
# binutils >= 2.42); the gcc-12 toolchain's binutils 2.40 does not, so there the check is not built.
include(CheckCXXSourceCompiles)
check_cxx_source_compiles("int main() { __asm__(\"vsha512rnds2 %xmm0, %ymm1, %ymm2\"); }"
                          SHAKEDOWN_ASSEMBLER_KNOWS_SHA512)
if(SHAKEDOWN_ASSEMBLER_KNOWS_SHA512)
  target_sources(shakedown_emul_tests PRIVATE tests/sha512ni_encoding_test.cc)
endif()
gtest_discover_tests(shakedown_emul_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "emul." DISCOVERY_TIMEOUT 60)

# The emulated backends in the fuzz targets' random runs (fuzz/CMakeLists.txt reads these): PadLock, and the
# Intel SHA512 extension (only the CPUID bit is assumed: AVX and YMM state are the host's own).
set_property(GLOBAL APPEND PROPERTY SHAKEDOWN_EMUL_FUZZ_VARIANTS emul-phe)
set_property(GLOBAL PROPERTY SHAKEDOWN_EMUL_FUZZ_ENV_emul-phe
  "SHAKEDOWN_EMULATE=phe:zhaoxin,strict" "SHAKEDOWN_TEST_ASSUME=zhaoxin-phe"
  "SHAKEDOWN_EMULATE_REQUIRE=xsha256=10,xsha512=10" "SHAKEDOWN_ENV_NAME=emul.phe-zhaoxin-strict")
if(NOT SHAKEDOWN_NO_X86_64_SHA512NI)
  set_property(GLOBAL APPEND PROPERTY SHAKEDOWN_EMUL_FUZZ_VARIANTS emul-sha512ni)
  set_property(GLOBAL PROPERTY SHAKEDOWN_EMUL_FUZZ_ENV_emul-sha512ni
    "SHAKEDOWN_EMULATE=sha512ni" "SHAKEDOWN_TEST_ASSUME=sha512" "SHAKEDOWN_EMULATE_REQUIRE=vsha512rnds2=1000"
    "SHAKEDOWN_ENV_NAME=emul.sha512ni")
endif()

# When PadLock instructions run at all (SECURITY.md: a pin or an exclusion keeps them from executing): the probe
# counts them under each SHAKEDOWN_BACKENDS with the Zhaoxin features assumed. The "no-emulator" entries have no
# SIGILL handler, so a single executed PadLock instruction kills them.
add_executable(shakedown_phe_selftest_probe tests/phe_selftest_probe.cc)
target_link_libraries(shakedown_phe_selftest_probe PRIVATE shakedown_emul shakedown::testing
                      $<BUILD_INTERFACE:shakedown_warnings>)
set(_no_shani "")
if(NOT SHAKEDOWN_NO_X86_64_SHANI)
  set(_no_shani "sha256=-x86_64/shani,")  # so that x86_64/phe is what selection would use on any host
endif()
function(phe_selftest_case name backends)
  cmake_parse_arguments(P "EMULATED" "" "ARGS" ${ARGN})
  set(_env "SHAKEDOWN_TEST_ASSUME=zhaoxin-phe" "SHAKEDOWN_BACKENDS=${backends}")
  if(P_EMULATED)
    list(APPEND _env "SHAKEDOWN_EMULATE=phe:zhaoxin,strict")
  endif()
  add_test(NAME emul.phe-selftest.${name} COMMAND shakedown_phe_selftest_probe ${P_ARGS})
  set_tests_properties(emul.phe-selftest.${name} PROPERTIES ENVIRONMENT "${_env}" LABELS emul TIMEOUT 60)
endfunction()
if(SHAKEDOWN_NO_X86_64_PHE OR SHAKEDOWN_NO_X86_64_PHE2)
  return()
endif()
phe_selftest_case(no-emulator-pinned-generic "sha256=generic,sha512=generic" ARGS xsha256=0 xsha512=0)
phe_selftest_case(no-emulator-phe-excluded "sha256=-x86_64/phe" ARGS xsha256=0 xsha512=0)
phe_selftest_case(selected-once "${_no_shani}sha512=-x86_64/avx512" EMULATED ARGS xsha256=1 xsha512=0)
phe_selftest_case(phe2-pinned "sha256=generic,sha512=x86_64/phe2" EMULATED ARGS xsha256=0 xsha512=1)
phe_selftest_case(bound-by-name "sha256=generic,sha512=generic" EMULATED
  ARGS --bind sha256=x86_64/phe --bind sha512=x86_64/phe2 xsha256=1 xsha512=1)
