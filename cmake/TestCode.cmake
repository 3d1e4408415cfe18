# The suites' own code at -Og: GoogleTest cases, vector-file readers and test drivers compile in about half the time
# of -O2 and stay debuggable. What they judge keeps the build type's optimization: the library and its backends,
# the emulators' models, and everything timed or fuzzed (docs/verification.md "Build time").
set(SHAKEDOWN_TEST_CODE_FLAGS "-Og" CACHE STRING "Optimization of the test suites' own sources (not the library)")
# A command-line string ("-O1 -g"), split into one option per word like CMAKE_CXX_FLAGS.
separate_arguments(SHAKEDOWN_TEST_CODE_OPTIONS UNIX_COMMAND "${SHAKEDOWN_TEST_CODE_FLAGS}")
add_library(shakedown_test_code INTERFACE)
target_compile_options(shakedown_test_code INTERFACE ${SHAKEDOWN_TEST_CODE_OPTIONS})
