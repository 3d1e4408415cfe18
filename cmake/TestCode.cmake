# The suites' own code at -Og with line tables only (-g1): GoogleTest cases, vector-file readers and test drivers
# compile in about half the time of -O2 -g, and a failure's backtrace still has its files and lines (set the
# variable to "-Og -g" to inspect their variables in a debugger). What they judge keeps the build type's
# optimization and debug info: the library and its backends, the emulators' models, and everything timed or fuzzed
# (docs/verification.md "Build time").
set(SHAKEDOWN_TEST_CODE_FLAGS "-Og -g1" CACHE STRING
    "Optimization and debug info of the test suites' own sources (not the library)")
# A command-line string ("-O1 -g"), split into one option per word like CMAKE_CXX_FLAGS.
separate_arguments(SHAKEDOWN_TEST_CODE_OPTIONS UNIX_COMMAND "${SHAKEDOWN_TEST_CODE_FLAGS}")
add_library(shakedown_test_code INTERFACE)
target_compile_options(shakedown_test_code INTERFACE ${SHAKEDOWN_TEST_CODE_OPTIONS})

# GoogleTest's header, precompiled once per suite executable: some 1.4 s of parsing (gcc -Og) that each of the
# suites' 40-odd GoogleTest sources paid again, in every build of ci/test. C++ sources only (the C API suite has
# C ones). Call it for an executable whose sources include <gtest/gtest.h>.
function(shakedown_gtest_precompiled target)
  target_precompile_headers(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:<gtest/gtest.h$<ANGLE-R>>")
endfunction()
