# x86-64 backend-level suites, included from tests/CMakeLists.txt (after shakedown_testmain exists).
# Direct block-function checks of the SHA-2 backends against the generic code.
add_executable(shakedown_x86_backends_tests ${CMAKE_CURRENT_LIST_DIR}/x86_backends_test.cc)
target_link_libraries(shakedown_x86_backends_tests PRIVATE shakedown_testmain $<BUILD_INTERFACE:shakedown_warnings>)
gtest_discover_tests(shakedown_x86_backends_tests DISCOVERY_MODE PRE_TEST TEST_PREFIX "x86_64." DISCOVERY_TIMEOUT 60
                     NO_PRETTY_VALUES)


# Keccak and PadLock backend-level suites.
include(${CMAKE_CURRENT_LIST_DIR}/keccak_tests.cmake)
