# The verification matrix of the target arch as ctest entries. ci/matrix/<arch>.txt declares the environments;
# ci/matrix.py (its one reader) turns each `env` row into one shakedown_add_variant() call and each contract line
# into shakedown_add_contract() calls. Included by the top level before any target exists (a cross build's plain
# entries run under the first qemu row's CPU: CMAKE_CROSSCOMPILING_EMULATOR), and shakedown_matrix_register() is
# called once every test target exists.
include(${CMAKE_CURRENT_LIST_DIR}/Qemu10.cmake)  # shakedown_find_qemu10(): the second executor (runner=qemu10)

set(SHAKEDOWN_QEMU_TEST_SCALE 0.05 CACHE STRING "SHAKEDOWN_TEST_SCALE of test runs under qemu-user")

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _matrix_proc)
if(_matrix_proc MATCHES "^(x86_64|amd64)$")
  set(SHAKEDOWN_MATRIX_ARCH x86_64)
elseif(_matrix_proc MATCHES "^(aarch64|arm64)$")
  set(SHAKEDOWN_MATRIX_ARCH aarch64)
else()
  set(SHAKEDOWN_MATRIX_ARCH "${_matrix_proc}")
endif()
set(_matrix_file ${PROJECT_SOURCE_DIR}/ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt)
set(_matrix_out ${PROJECT_BINARY_DIR}/matrix-${SHAKEDOWN_MATRIX_ARCH}.cmake)

# Sanitizer runtimes reserve huge shadow mappings: ASan, MSan and TSan binaries never run under qemu-user (an
# x86 ASan binary under qemu-x86_64 grew to 24 GB), so those builds register native environments only.
set(SHAKEDOWN_SANITIZED OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*(address|memory|thread)")
  set(SHAKEDOWN_SANITIZED ON)
endif()

function(shakedown_matrix_load)
  if(NOT EXISTS ${_matrix_file})
    message(STATUS "shakedown: no ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt: no environment variants")
    return()
  endif()
  find_package(Python3 3.7 REQUIRED COMPONENTS Interpreter)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/ci/matrix.py cmake ${SHAKEDOWN_MATRIX_ARCH}
                          ${_matrix_out}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "shakedown: ci/matrix/${SHAKEDOWN_MATRIX_ARCH}.txt: ${_err}")
  endif()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${_matrix_file} ${PROJECT_SOURCE_DIR}/ci/matrix.py)
  include(${_matrix_out})  # SHAKEDOWN_MATRIX_FIRST_QEMU_CPU and shakedown_matrix_variants()
  set(SHAKEDOWN_MATRIX_FIRST_QEMU_CPU "${SHAKEDOWN_MATRIX_FIRST_QEMU_CPU}" PARENT_SCOPE)
  set(SHAKEDOWN_MATRIX_LOADED ON PARENT_SCOPE)
endfunction()

shakedown_matrix_load()
if(CMAKE_CROSSCOMPILING AND SHAKEDOWN_MATRIX_FIRST_QEMU_CPU)
  if(SHAKEDOWN_SANITIZED)
    message(FATAL_ERROR "shakedown: ASan/MSan/TSan builds must not run under qemu-user; use UBSan only in cross builds")
  endif()
  # Every plain ctest entry (discovered per-test entries, tools, fuzz corpora) runs under the first CPU model.
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SHAKEDOWN_QEMU} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${SHAKEDOWN_MATRIX_FIRST_QEMU_CPU}
      -E SHAKEDOWN_TEST_SCALE=${SHAKEDOWN_QEMU_TEST_SCALE})
endif()
if(NOT CMAKE_CROSSCOMPILING)
  find_program(SHAKEDOWN_HOST_QEMU qemu-${SHAKEDOWN_MATRIX_ARCH})
endif()

# _shakedown_matrix_runner(<var> <runner> <cpu> [NEEDS backend...]): the command prefix of a row's binaries in
# <var>, or <var>-NOTFOUND when this build cannot run the row: a cross build has no native rows; ASan, MSan and
# TSan binaries never run under QEMU; QEMU 10 may be missing (cmake/Qemu10.cmake says so); a backend the row needs
# may be configured out (SHAKEDOWN_NO_<ARCH>_<ISA>: not in SHAKEDOWN_COMPILED_BACKENDS).
function(_shakedown_matrix_runner var runner cpu)
  cmake_parse_arguments(R "" "" "NEEDS" ${ARGN})
  set(${var} ${var}-NOTFOUND PARENT_SCOPE)
  if(R_NEEDS)
    shakedown_backends_compiled(_compiled ${R_NEEDS})
    if(NOT _compiled)
      return()
    endif()
  endif()
  if(runner STREQUAL "native")
    if(NOT CMAKE_CROSSCOMPILING)
      set(${var} "" PARENT_SCOPE)
    endif()
    return()
  endif()
  if(SHAKEDOWN_SANITIZED)
    return()
  endif()
  if(runner STREQUAL "qemu10")
    shakedown_find_qemu10(${SHAKEDOWN_MATRIX_ARCH} _qemu)
  elseif(CMAKE_CROSSCOMPILING)
    set(_qemu ${SHAKEDOWN_QEMU})
  else()
    set(_qemu ${SHAKEDOWN_HOST_QEMU})
  endif()
  if(NOT _qemu)
    return()
  endif()
  if(CMAKE_CROSSCOMPILING)
    set(${var} ${_qemu} -L ${SHAKEDOWN_CROSS_SYSROOT} -cpu ${cpu} PARENT_SCOPE)
  else()
    set(${var} ${_qemu} -cpu ${cpu} PARENT_SCOPE)
  endif()
endfunction()

# _shakedown_profile_env(<var> [EMULATE spec] [ASSUME features] [SELECT selection] [REQUIRE counts]): the
# environment items of a profile in <var> (SHAKEDOWN_EMULATE, _TEST_ASSUME, _EXPECT_SELECTED, _EMULATE_REQUIRE), empty
# ones left out.
function(_shakedown_profile_env var)
  cmake_parse_arguments(P "" "EMULATE;ASSUME;SELECT;REQUIRE" "" ${ARGN})
  set(_items "")
  foreach(_pair EMULATE=SHAKEDOWN_EMULATE ASSUME=SHAKEDOWN_TEST_ASSUME SELECT=SHAKEDOWN_EXPECT_SELECTED
                REQUIRE=SHAKEDOWN_EMULATE_REQUIRE)
    string(REPLACE "=" ";" _pair "${_pair}")
    list(GET _pair 0 _key)
    list(GET _pair 1 _variable)
    if(P_${_key})
      list(APPEND _items "${_variable}=${P_${_key}}")
    endif()
  endforeach()
  set(${var} ${_items} PARENT_SCOPE)
endfunction()

# shakedown_add_variant(<env> RUNNER native|qemu|qemu10 [CPU cpu] [NEEDS backend...] [SUITES name...]
#                       [FILTER gtest-filter] [SELF_TEST name] [FUZZ replay|random...] [FUZZ_TARGETS target...]
#                       [RUN target [ARGS arg...]] [EMULATE spec] [ASSUME features] [SELECT family=backend,...]
#                       [REQUIRE counts] [FUZZ_REQUIRE counts] [SCALE n] [ENV NAME=VALUE...] [LABELS label...]
#                       [TIMEOUT s])
# Registers one environment: <env>.shakedown_<suite>_tests for each GoogleTest suite (with the environment's
# profile, selection and scale), <env>.shakedown_<self-test>_tests (an emulator's own tests: they install their
# profiles themselves, so only ENV), <env>.<target>.replay|random for the fuzz targets' standalone drivers, or,
# for an environment that is one program run (RUN), the entry <env> (the profile and ENV, no scale).
# Entries whose target this build lacks are left out; so is an environment this build cannot run.
function(shakedown_add_variant env)
  cmake_parse_arguments(V "" "RUNNER;CPU;FILTER;SELF_TEST;RUN;EMULATE;ASSUME;SELECT;REQUIRE;FUZZ_REQUIRE;SCALE;TIMEOUT"
                        "NEEDS;SUITES;FUZZ;FUZZ_TARGETS;ARGS;ENV;LABELS" ${ARGN})
  if((V_EMULATE OR V_SELF_TEST) AND NOT TARGET shakedown_emul)
    return()
  endif()
  _shakedown_matrix_runner(_runner "${V_RUNNER}" "${V_CPU}" NEEDS ${V_NEEDS})
  if(_runner STREQUAL "_runner-NOTFOUND")
    return()
  endif()
  if(NOT V_RUNNER STREQUAL "native" AND NOT V_SCALE)
    set(V_SCALE ${SHAKEDOWN_QEMU_TEST_SCALE})
  endif()
  if(NOT V_LABELS)
    set(V_LABELS ${env})
  endif()
  if(NOT V_TIMEOUT)
    set(V_TIMEOUT 1500)
  endif()
  if(NOT V_FUZZ_TARGETS)
    set(V_FUZZ_TARGETS fuzz_hash fuzz_blocks fuzz_api fuzz_many)  # ci/matrix.py FUZZ_TARGETS
  endif()

  # The environment of the suites, and of the fuzz drivers (whose emulation minimum may be lower: fewer inputs).
  set(_profile EMULATE "${V_EMULATE}" ASSUME "${V_ASSUME}" SELECT "${V_SELECT}")
  _shakedown_profile_env(_suite_env ${_profile} REQUIRE "${V_REQUIRE}")
  set(_tail "")
  if(V_SCALE)
    list(APPEND _tail "SHAKEDOWN_TEST_SCALE=${V_SCALE}")
  endif()
  list(APPEND _tail ${V_ENV} "SHAKEDOWN_ENV_NAME=${env}")
  if(V_RUN)
    if(TARGET ${V_RUN})
      add_test(NAME ${env} COMMAND ${_runner} $<TARGET_FILE:${V_RUN}> ${V_ARGS})
      list(APPEND _suite_env ${V_ENV})
      set_tests_properties(${env} PROPERTIES LABELS "${V_LABELS}" TIMEOUT ${V_TIMEOUT})
      if(_suite_env)
        set_tests_properties(${env} PROPERTIES ENVIRONMENT "${_suite_env}")
      endif()
    endif()
    return()
  endif()
  list(APPEND _suite_env ${_tail})
  if(NOT V_FUZZ_REQUIRE)
    set(V_FUZZ_REQUIRE "${V_REQUIRE}")
  endif()
  _shakedown_profile_env(_fuzz_env ${_profile} REQUIRE "${V_FUZZ_REQUIRE}")
  list(APPEND _fuzz_env ${_tail})

  set(_filter "")
  if(V_FILTER)
    set(_filter "--gtest_filter=${V_FILTER}")
  endif()
  foreach(_suite IN LISTS V_SUITES)
    if(TARGET shakedown_${_suite}_tests)
      add_test(NAME ${env}.shakedown_${_suite}_tests COMMAND ${_runner} $<TARGET_FILE:shakedown_${_suite}_tests> ${_filter})
      # A whole diff or vectors suite takes 10-80 s, most other entries under a second: start the suites first, also
      # in a clean build, which has no ctest timing record to order by (COST: only the order matters).
      set_tests_properties(${env}.shakedown_${_suite}_tests PROPERTIES
        ENVIRONMENT "${_suite_env}" LABELS "${V_LABELS}" TIMEOUT ${V_TIMEOUT} COST 40)
    endif()
  endforeach()
  if(V_SELF_TEST AND TARGET shakedown_${V_SELF_TEST}_tests)
    # The models' own tests are short; they take no profile from the environment.
    add_test(NAME ${env}.shakedown_${V_SELF_TEST}_tests COMMAND ${_runner} $<TARGET_FILE:shakedown_${V_SELF_TEST}_tests>)
    set_tests_properties(${env}.shakedown_${V_SELF_TEST}_tests PROPERTIES LABELS "${V_LABELS}" TIMEOUT 600)
    if(V_ENV)
      set_tests_properties(${env}.shakedown_${V_SELF_TEST}_tests PROPERTIES ENVIRONMENT "${V_ENV}")
    endif()
  endif()
  foreach(_target IN LISTS V_FUZZ_TARGETS)
    if(NOT TARGET ${_target}_standalone)
      continue()
    endif()
    foreach(_mode IN LISTS V_FUZZ)
      if(_mode STREQUAL "replay")
        set(_args ${PROJECT_SOURCE_DIR}/fuzz/corpus/${_target})
      else()
        set(_args -runs=${SHAKEDOWN_FUZZ_RANDOM_RUNS} -seed=2 -max_len=1024)
      endif()
      add_test(NAME ${env}.${_target}.${_mode} COMMAND ${_runner} $<TARGET_FILE:${_target}_standalone> ${_args})
      set_tests_properties(${env}.${_target}.${_mode} PROPERTIES
        ENVIRONMENT "${_fuzz_env}" LABELS "${V_LABELS};fuzz" TIMEOUT ${V_TIMEOUT})
    endforeach()
  endforeach()
endfunction()

# shakedown_add_contract(<family> <env> RUNNER native|qemu|qemu10 [CPU cpu] [NEEDS backend...] [EMULATE spec]
#                        [REQUIRE counts] [ARGS arg...] [WITH_FLIPS])
# An inline-asm contract test (tests/asm_contract/) in one environment: asm_contract.<family>.<env>, and with
# WITH_FLIPS asm_contract.<family>.flip-<id>.<env> per flipped copy the build has, which passes only if the run
# fails and prints the violation line (tests/asm_contract/expect_violation.cmake). Left out when the family's test
# is not built here or the environment cannot run.
function(shakedown_add_contract family env)
  cmake_parse_arguments(C "WITH_FLIPS" "RUNNER;CPU;EMULATE;REQUIRE" "NEEDS;ARGS" ${ARGN})
  if(NOT TARGET shakedown_asm_contract_${family} OR (C_EMULATE AND NOT TARGET shakedown_emul))
    return()
  endif()
  _shakedown_matrix_runner(_runner "${C_RUNNER}" "${C_CPU}" NEEDS ${C_NEEDS})
  if(_runner STREQUAL "_runner-NOTFOUND")
    return()
  endif()
  _shakedown_profile_env(_env EMULATE "${C_EMULATE}" REQUIRE "${C_REQUIRE}")
  set(_flips "")
  if(C_WITH_FLIPS)
    set(_flips WITH_FLIPS)
  endif()
  asm_contract_run(${family} ${env} RUNNER ${_runner} ENV ${_env} ARGS ${C_ARGS} ${_flips})
endfunction()

# Registers every environment of the matrix; called once every test and fuzz target exists.
function(shakedown_matrix_register)
  if(SHAKEDOWN_MATRIX_LOADED)
    shakedown_matrix_variants()
  endif()
endfunction()
