# The MemorySanitizer driver (no GoogleTest, see msan_check.cc); in other builds a plain differential run.
# Included by tests/CMakeLists.txt, and by the top level when only the driver is built (msan preset:
# SHAKEDOWN_BUILD_TESTS=OFF, SHAKEDOWN_MSAN_CHECK=ON), so that no GoogleTest executable exists in an MSan tree
# for ctest's test discovery to start (they all report inside GoogleTest before their first test).
if(NOT SHAKEDOWN_ORACLE_OPENSSL)
  return()
endif()
add_executable(shakedown_msan_check ${CMAKE_CURRENT_LIST_DIR}/msan_check.cc)
target_link_libraries(shakedown_msan_check PRIVATE shakedown_test_support $<BUILD_INTERFACE:shakedown_warnings>)
add_test(NAME msan.check COMMAND shakedown_msan_check)
set_tests_properties(msan.check PROPERTIES LABELS msan TIMEOUT 600)
