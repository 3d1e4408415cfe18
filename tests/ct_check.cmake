# The constant-time suite (tests/ct_check.cc) under the tool of this build, and its deliberate-leak variant.
# Included by the top level when SHAKEDOWN_CT_CHECK is on: the msan preset (MemorySanitizer) and the valgrind
# preset (a native g++-12 build with SHAKEDOWN_CT_VALGRIND, run under Valgrind memcheck: never under QEMU).

if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=memory")
  # Reports must name source lines: MSan needs llvm-symbolizer for that (Debian's llvm package).
  find_program(SHAKEDOWN_LLVM_SYMBOLIZER NAMES llvm-symbolizer-19 llvm-symbolizer)
  if(NOT SHAKEDOWN_LLVM_SYMBOLIZER)
    message(FATAL_ERROR "SHAKEDOWN_CT_CHECK: llvm-symbolizer not found (apt-get install llvm, or ci/setup)")
  endif()
  set(_ct_tool msan)
  set(_ct_run "")
  set(_ct_env MSAN_OPTIONS=halt_on_error=1 MSAN_SYMBOLIZER_PATH=${SHAKEDOWN_LLVM_SYMBOLIZER})
  # Both leaks must be reported: see shakedown_ct_leak below.
  set(_ct_leak_env MSAN_OPTIONS=halt_on_error=0 MSAN_SYMBOLIZER_PATH=${SHAKEDOWN_LLVM_SYMBOLIZER})
  # The report heading of a secret branch, then of a secret address (MSan names both alike).
  set(_ct_reports "WARNING: MemorySanitizer: use-of-uninitialized-value"
                  "WARNING: MemorySanitizer: use-of-uninitialized-value")
elseif(SHAKEDOWN_CT_VALGRIND)
  find_program(SHAKEDOWN_VALGRIND valgrind)
  if(NOT SHAKEDOWN_VALGRIND)
    message(FATAL_ERROR "SHAKEDOWN_CT_VALGRIND: valgrind not found (apt-get install valgrind, or ci/setup)")
  endif()
  # --error-exitcode: any report fails the run; --track-origins: a report says which marked secret it came from.
  set(_ct_tool valgrind)
  set(_ct_run ${SHAKEDOWN_VALGRIND} --tool=memcheck -q --error-exitcode=1 --track-origins=yes --num-callers=12)
  set(_ct_env "")
  set(_ct_leak_env "")
  set(_ct_reports "Conditional jump or move depends on uninitialised value" "Use of uninitialised value of size")
else()
  message(FATAL_ERROR "SHAKEDOWN_CT_CHECK needs a MemorySanitizer build (msan preset) or SHAKEDOWN_CT_VALGRIND "
                      "(valgrind preset): without a tool the suite checks nothing")
endif()

function(shakedown_ct_driver target)
  add_executable(${target} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ct_check.cc ${ARGN})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/lib/src)  # internal/constant_time.h
  target_compile_definitions(${target} PRIVATE $<$<BOOL:${SHAKEDOWN_CT_VALGRIND}>:SHAKEDOWN_CT_VALGRIND=1>)
  target_link_libraries(${target} PRIVATE shakedown_test_support $<BUILD_INTERFACE:shakedown_warnings>)
endfunction()

# The C API program (tests/c_api/c_api_test.c) under Valgrind, which reports any read of storage never written:
# the C API must not read a context's storage before init constructs it (docs/c-api.md). Not under MSan: the
# program's error paths build std::runtime_error messages in libstdc++, which MSan builds do not instrument.
if(_ct_tool STREQUAL "valgrind")
  add_executable(shakedown_c_api_under_tool ${CMAKE_CURRENT_LIST_DIR}/c_api/c_api_test.c)
  set_target_properties(shakedown_c_api_under_tool PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
                                                              LINKER_LANGUAGE CXX)
  target_link_libraries(shakedown_c_api_under_tool PRIVATE shakedown::shakedown
                                                           $<BUILD_INTERFACE:shakedown_warnings>)
  add_test(NAME c_api.c_program.valgrind COMMAND ${_ct_run} $<TARGET_FILE:shakedown_c_api_under_tool>)
  set_tests_properties(c_api.c_program.valgrind PROPERTIES LABELS valgrind TIMEOUT 600
                                                           PASS_REGULAR_EXPRESSION "[0-9]+ checks passed")
endif()

shakedown_ct_driver(shakedown_ct_check)
add_test(NAME ct.${_ct_tool} COMMAND ${_ct_run} $<TARGET_FILE:shakedown_ct_check>)
set_tests_properties(ct.${_ct_tool} PROPERTIES LABELS ${_ct_tool} TIMEOUT 600)
if(_ct_env)
  set_tests_properties(ct.${_ct_tool} PROPERTIES ENVIRONMENT "${_ct_env}")
endif()

# The deliberate-leak driver: hash.cc compiled once more with SHAKEDOWN_TEST_LEAK (lib/src/internal/test_leak.h)
# and linked ahead of the library, so that the linker never takes the library's own hash.cc object: every
# other object is the one the clean run checks. That needs the static library (the default).
get_target_property(_ct_lib_type shakedown TYPE)
if(NOT _ct_lib_type STREQUAL "STATIC_LIBRARY")
  message(FATAL_ERROR "SHAKEDOWN_CT_CHECK: the deliberate-leak driver links over a static libshakedown")
endif()
add_library(shakedown_ct_leak OBJECT ${PROJECT_SOURCE_DIR}/lib/src/hash.cc)
target_include_directories(shakedown_ct_leak PRIVATE ${PROJECT_SOURCE_DIR}/lib/src
                                                     $<TARGET_PROPERTY:shakedown,INCLUDE_DIRECTORIES>)
target_compile_definitions(shakedown_ct_leak PRIVATE SHAKEDOWN_TEST_LEAK=1
                                                     $<TARGET_PROPERTY:shakedown,COMPILE_DEFINITIONS>)
target_link_libraries(shakedown_ct_leak PRIVATE $<BUILD_INTERFACE:shakedown_warnings>)
if(_ct_tool STREQUAL msan)
  # MSan halts at its first report unless the reporting code was built to recover; then MSAN_OPTIONS decides.
  target_compile_options(shakedown_ct_leak PRIVATE -fsanitize-recover=memory)
endif()
shakedown_ct_driver(shakedown_ct_check_leak $<TARGET_OBJECTS:shakedown_ct_leak>)
list(GET _ct_reports 0 _ct_branch_report)
list(GET _ct_reports 1 _ct_lookup_report)
add_test(NAME ct.${_ct_tool}.leak
         COMMAND ${CMAKE_COMMAND} -DLEAK_SOURCE=${PROJECT_SOURCE_DIR}/lib/src/internal/test_leak.h
                 "-DBRANCH_REPORT=${_ct_branch_report}" "-DLOOKUP_REPORT=${_ct_lookup_report}"
                 -P ${CMAKE_CURRENT_LIST_DIR}/ct_expect_leak.cmake -- ${_ct_run} $<TARGET_FILE:shakedown_ct_check_leak>)
# SHAKEDOWN_RECORD emptied: a run over a leaking library must not count as constant-time coverage.
list(APPEND _ct_leak_env SHAKEDOWN_RECORD=)
set_tests_properties(ct.${_ct_tool}.leak PROPERTIES LABELS ${_ct_tool} TIMEOUT 600 ENVIRONMENT "${_ct_leak_env}")
