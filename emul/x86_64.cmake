# x86-64: the PadLock PHE/PHE2 model (docs/isa/padlock.md §1), the Intel SHA512-extension model
# (docs/intel-sha512.md) and their tests. Included by emul/CMakeLists.txt.
target_sources(shakedown_emul PRIVATE src/phe_model.cc src/sha512ni_model.cc src/xsave_frame.cc src/trap_x86_64.cc)
set_source_files_properties(src/phe_model.cc src/sha512ni_model.cc PROPERTIES COMPILE_OPTIONS "-O2")

# The models' own tests: hand-written asm callers against OpenSSL and (SHA512) hand-derived FIPS answers, the
# regression proofs, the framework (chaining, threads, environment syntax), the emulated backends through the
# public API, and the overhead.
add_executable(shakedown_emul_tests
  tests/main.cc
  tests/phe_model_test.cc
  tests/phe_regression_test.cc
  tests/phe_framework_test.cc
  tests/phe_backend_test.cc
  tests/phe_overhead_test.cc
  tests/sha512ni_model_test.cc
  tests/sha512ni_trap_test.cc
)
target_include_directories(shakedown_emul_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                           ${PROJECT_SOURCE_DIR}/arch/x86_64 ${PROJECT_SOURCE_DIR}/lib/src)
target_link_libraries(shakedown_emul_tests PRIVATE shakedown_emul shakedown_test_support GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings>
                      $<BUILD_INTERFACE:shakedown_test_code>)
shakedown_gtest_precompiled(shakedown_emul_tests)
# The backends compiled into this build: their tests must find them (a missing backend is a failure, not a skip).
shakedown_backends_compiled(_phe_compiled sha256/x86_64/phe sha512/x86_64/phe2)
if(_phe_compiled)
  target_compile_definitions(shakedown_emul_tests PRIVATE SHAKEDOWN_EMUL_EXPECT_PHE_BACKENDS=1)
endif()
shakedown_backends_compiled(_sha512ni_compiled sha512/x86_64/sha512ni)
if(_sha512ni_compiled)
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

# The Intel SHA512 model against Bochs (docs/bochs.md): the instructions run for real under Bochs' arrow_lake model
# and through the model on the same registers; the bochs-x86_64.*sha512ni_conformance rows of ci/matrix/x86_64.txt
# run it there (natively, where no CPU has the instructions, it fails at once: it exists to compare).
add_executable(shakedown_emul_sha512ni_conformance tests/main.cc tests/sha512ni_conformance_test.cc)
target_include_directories(shakedown_emul_sha512ni_conformance PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                           ${PROJECT_SOURCE_DIR}/arch/x86_64)
target_link_libraries(shakedown_emul_sha512ni_conformance PRIVATE shakedown_emul shakedown_test_support GTest::gtest
                      $<BUILD_INTERFACE:shakedown_warnings> $<BUILD_INTERFACE:shakedown_test_code>)

# The PadLock rows at the backend level (predicates, flags, order, nblocks 0, execution against OpenSSL and generic),
# a GoogleTest suite with the test main, so that the emulated environments (suites=padlock in ci/matrix/x86_64.txt)
# run it under their profile. Built where both rows are compiled.
if(_phe_compiled)
  add_executable(shakedown_padlock_tests tests/padlock_backend_test.cc)
  target_include_directories(shakedown_padlock_tests PRIVATE ${PROJECT_SOURCE_DIR}/lib/src)  # internal/generic.h
  target_link_libraries(shakedown_padlock_tests PRIVATE shakedown_testmain $<BUILD_INTERFACE:shakedown_warnings>
                        $<BUILD_INTERFACE:shakedown_test_code>)
  gtest_discover_tests(shakedown_padlock_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "emul." DISCOVERY_TIMEOUT 60)
endif()

# When PadLock instructions run at all (SECURITY.md: a pin or an exclusion keeps them from executing): the probe
# counts them under each SHAKEDOWN_BACKENDS with the Zhaoxin features assumed; its cases are the emul.phe-selftest.*
# environments of ci/matrix/x86_64.txt. The emulated environments (suites and fuzz drivers under the models): the
# emul.* rows there.
add_executable(shakedown_phe_selftest_probe tests/phe_selftest_probe.cc)
target_link_libraries(shakedown_phe_selftest_probe PRIVATE shakedown_emul shakedown::testing
                      $<BUILD_INTERFACE:shakedown_warnings>)

# The Linux kernel's PadLock hash code on the PadLock model (docs/third-party.md): drivers/crypto/padlock-sha.c and
# lib/crypto/x86/sha256.h, kept from Debian's linux-source by ci/fetch-third-party (kit linux-forky-padlock), are
# compiled unchanged into the third-party harness against tests/third_party/linux_kernel_shim.h, which every kernel
# header they include stands for. Without the kit its rows are not registered and the program is not built.
set(_linux_kit "${SHAKEDOWN_THIRD_PARTY_DIR}/linux-forky-padlock")
shakedown_plan_runs(_linux_runs shakedown_third_party_linux)
if(_linux_runs AND NOT SHAKEDOWN_BUILD_FUZZ AND EXISTS "${_linux_kit}/.complete")
  file(STRINGS "${_linux_kit}/.complete" _linux_source LIMIT_COUNT 1)  # "Debian forky linux-source-7.2 7.2.12-1 (...)"
  string(REGEX REPLACE "^Debian [a-z]+ ([^ ]+ [^ ]+).*$" "\\1" _linux_source "${_linux_source}")
  set(_linux_shim ${CMAKE_CURRENT_BINARY_DIR}/linux-shim)
  foreach(_h asm/cpu_device_id.h asm/fpu/api.h crypto/internal/hash.h crypto/padlock.h crypto/sha1.h crypto/sha2.h
             linux/cpufeature.h linux/err.h linux/kernel.h linux/module.h linux/static_call.h)
    file(CONFIGURE OUTPUT ${_linux_shim}/${_h} CONTENT "#include \"linux_kernel_shim.h\"\n")
  endforeach()
  add_library(shakedown_linux_padlock STATIC tests/third_party/linux_padlock.c)
  target_include_directories(shakedown_linux_padlock PRIVATE ${_linux_shim} ${CMAKE_CURRENT_SOURCE_DIR}/tests/third_party
                             ${_linux_kit}/src)
  # The kernel's code keeps its own style (-w: its warnings are not this build's); the markers around it need the
  # functions in source order.
  target_compile_options(shakedown_linux_padlock PRIVATE -fno-toplevel-reorder -w)
  add_executable(shakedown_third_party_linux tests/third_party_openssl.cc)
  target_compile_definitions(shakedown_third_party_linux PRIVATE SHAKEDOWN_THIRD_PARTY_LINUX
                             SHAKEDOWN_LINUX_SOURCE="${_linux_source}")
  target_include_directories(shakedown_third_party_linux PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/tests)
  target_link_libraries(shakedown_third_party_linux PRIVATE shakedown_linux_padlock shakedown_emul
                        shakedown_vectors_support shakedown_test_support $<BUILD_INTERFACE:shakedown_warnings>
                        $<BUILD_INTERFACE:shakedown_test_code>)
else()
  message(STATUS "shakedown: the Linux PadLock harness is not built: no row of this build runs it (no "
                 "linux-forky-padlock kit in ${SHAKEDOWN_THIRD_PARTY_DIR}, ci/fetch-third-party, or a sanitized build)")
endif()
