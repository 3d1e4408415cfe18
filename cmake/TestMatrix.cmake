# Environment variants of the test suites, registered once every test target exists.
# Each variant is the same binary run under a different environment: an emulated CPU profile, or
# qemu-x86_64 with a CPU model that lacks SHA-NI / AVX-512 (and AVX2), with the selection asserted.

include(${CMAKE_CURRENT_LIST_DIR}/Qemu10.cmake)  # shakedown_find_qemu10(): the second executor

# Suites that take part in every environment (each directory appends its gtest binary).
get_property(SHAKEDOWN_SUITES GLOBAL PROPERTY SHAKEDOWN_SUITES)

# ASan binaries must never run under qemu-user (docs/platforms.md §6.1: an x86 ASan binary under
# qemu-x86_64 grew to 24 GB), so sanitizer builds register native entries only.
# TSan and MSan runtimes reserve huge shadow mappings the same way, so they are kept native too.
set(SHAKEDOWN_SANITIZED OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*(address|memory|thread)")
  set(SHAKEDOWN_SANITIZED ON)
endif()

# shakedown_add_variant(PREFIX <name> [EMULATOR cmd...] [ENV k=v...]): one ctest entry per suite.
function(shakedown_add_variant)
  cmake_parse_arguments(V "" "PREFIX" "EMULATOR;ENV" ${ARGN})
  foreach(suite IN LISTS SHAKEDOWN_SUITES)
    if(TARGET ${suite})
      add_test(NAME ${V_PREFIX}.${suite} COMMAND ${V_EMULATOR} $<TARGET_FILE:${suite}>)
      set_tests_properties(${V_PREFIX}.${suite} PROPERTIES
        ENVIRONMENT "${V_ENV};SHAKEDOWN_ENV_NAME=${V_PREFIX}" LABELS "${V_PREFIX}" TIMEOUT 1500)
    endif()
  endforeach()
endfunction()

find_program(QEMU_X86_64 qemu-x86_64)
if(SHAKEDOWN_ARCH STREQUAL "x86_64" AND QEMU_X86_64 AND NOT SHAKEDOWN_SANITIZED AND NOT CMAKE_CROSSCOMPILING)
  # The selection each CPU model must produce (arch/x86_64/CMakeLists.txt sets these lists from the
  # backends it compiles; generic when a family has no x86 backend for that model).
  shakedown_add_variant(PREFIX qemu-x86_64.avx2 EMULATOR ${QEMU_X86_64} -cpu max
    ENV "SHAKEDOWN_TEST_SCALE=0.05" "SHAKEDOWN_EXPECT_SELECTED=${SHAKEDOWN_EXPECT_QEMU_MAX}")
  shakedown_add_variant(PREFIX qemu-x86_64.noavx2 EMULATOR ${QEMU_X86_64} -cpu max,-avx2
    ENV "SHAKEDOWN_TEST_SCALE=0.05" "SHAKEDOWN_EXPECT_SELECTED=${SHAKEDOWN_EXPECT_QEMU_NOAVX2}")
  # QEMU 10 (ci/fetch-qemu10, docs/qemu10.md) executes SHA-NI: the lattice with SHA-NI and without AVX2, where only
  # the SHA-NI tests are new (the rest is the code the QEMU 7.2 models run; the selection is asserted either way).
  # Its 10.0.2 build loads 32 bytes for a VINSERTx128 memory operand, so the AVX2 backends fault at guard pages
  # under any QEMU 10 model with AVX2: they keep the QEMU 7.2 and native columns.
  shakedown_find_qemu10(x86_64 _qemu10_x86)
  if(_qemu10_x86)
    shakedown_add_variant(PREFIX qemu10-x86_64.denverton EMULATOR ${_qemu10_x86} -cpu Denverton
      ENV "SHAKEDOWN_TEST_SCALE=0.05" "SHAKEDOWN_EXPECT_SELECTED=${SHAKEDOWN_EXPECT_QEMU10_DENVERTON}"
          "GTEST_FILTER=*x86_64_shani*")
    shakedown_add_variant(PREFIX qemu10-x86_64.shani-noavx2 EMULATOR ${_qemu10_x86} -cpu max,-avx2
      ENV "SHAKEDOWN_TEST_SCALE=0.05" "SHAKEDOWN_EXPECT_SELECTED=${SHAKEDOWN_EXPECT_QEMU10_NOAVX2}"
          "GTEST_FILTER=*x86_64_shani*")
  endif()
  # The fuzz corpora are a regression suite under QEMU too (standalone driver: no libFuzzer there).
  foreach(target fuzz_hash fuzz_blocks fuzz_api fuzz_many)
    if(TARGET ${target}_standalone)
      add_test(NAME qemu-x86_64.avx2.fuzz.replay.${target}
               COMMAND ${QEMU_X86_64} -cpu max $<TARGET_FILE:${target}_standalone> ${PROJECT_SOURCE_DIR}/fuzz/corpus/${target})
      set_tests_properties(qemu-x86_64.avx2.fuzz.replay.${target} PROPERTIES
        ENVIRONMENT "SHAKEDOWN_ENV_NAME=qemu-x86_64.avx2" LABELS "qemu-x86_64.avx2;fuzz" TIMEOUT 600)
      if(_qemu10_x86)
        # SHA-NI executed by QEMU 10 in the fuzz comparisons too: corpus replay and a bounded random run.
        set(_q10 qemu10-x86_64.denverton)
        add_test(NAME ${_q10}.fuzz.replay.${target} COMMAND ${_qemu10_x86} -cpu Denverton
                 $<TARGET_FILE:${target}_standalone> ${PROJECT_SOURCE_DIR}/fuzz/corpus/${target})
        add_test(NAME ${_q10}.fuzz.random.${target} COMMAND ${_qemu10_x86} -cpu Denverton
                 $<TARGET_FILE:${target}_standalone> -runs=300 -seed=2 -max_len=1024)
        set_tests_properties(${_q10}.fuzz.replay.${target} ${_q10}.fuzz.random.${target} PROPERTIES
          ENVIRONMENT "SHAKEDOWN_ENV_NAME=${_q10};SHAKEDOWN_EXPECT_SELECTED=${SHAKEDOWN_EXPECT_QEMU10_DENVERTON}"
          LABELS "${_q10};fuzz" TIMEOUT 600)
      endif()
    endif()
  endforeach()
endif()

# Emulated variants of the suites for this arch's trap-and-emulate model (emul/tests_<arch>.cmake).
if(SHAKEDOWN_ARCH AND EXISTS ${PROJECT_SOURCE_DIR}/emul/tests_${SHAKEDOWN_ARCH}.cmake)
  include(${PROJECT_SOURCE_DIR}/emul/tests_${SHAKEDOWN_ARCH}.cmake)
endif()

if(CMAKE_CROSSCOMPILING)
  include(${CMAKE_CURRENT_LIST_DIR}/CrossMatrix.cmake OPTIONAL)  # qemu-user CPU models of cross builds
endif()
